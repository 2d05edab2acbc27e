import { screen } from '@testing-library/react';
import { Suspense } from 'react';
import { renderWithApp } from '../testing/render';
import { lazyScreen, shouldReloadForChunk } from './lazy-screen';

describe('a screen whose chunk does not load', () => {
  it('reloads online unless it reloaded for a chunk in the last 30 seconds, and never offline', () => {
    const now = 1_000_000;
    expect(shouldReloadForChunk(true, null, now)).toBe(true);
    expect(shouldReloadForChunk(true, String(now - 5_000), now)).toBe(false);
    expect(shouldReloadForChunk(true, String(now - 31_000), now)).toBe(true);
    expect(shouldReloadForChunk(true, 'garbage', now)).toBe(true);
    expect(shouldReloadForChunk(false, null, now)).toBe(false);
  });

  it('says offline that the screen needs the network instead of leaving the page blank', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const Screen = lazyScreen(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    renderWithApp(
      <Suspense fallback={null}>
        <Screen />
      </Suspense>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This screen needs the network the first time');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    online.mockRestore();
  });
});
