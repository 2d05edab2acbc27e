import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import ar from '../../../../public/locales/ar/translation.json';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp, testI18n } from '../../../testing/render';
import { googleSignInPath } from '../api/auth-api';
import { GoogleButton } from './google-button';

// The packaged app: the device's account picker answers an ID token.
vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => true, getPlatform: () => 'android' } }));
vi.mock('@capgo/capacitor-social-login', () => ({
  SocialLogin: { initialize: async () => undefined, login: async () => ({ result: { idToken: 'google-id-token' } }) },
}));

describe('Google sign-in', () => {
  beforeAll(() => testI18n.addResourceBundle('ar', 'translation', ar));
  beforeEach(() => vi.stubEnv('VITE_GOOGLE_CLIENT_ID', 'parley.apps.googleusercontent.com'));
  afterEach(() => vi.unstubAllEnvs());
  afterEach(() => act(() => testI18n.changeLanguage('en')));

  it("gives the browser flow the page's language, which a new account takes", () => {
    expect(googleSignInPath('ar')).toBe('/identity/auth/google?language=ar');
    expect(googleSignInPath('en')).toBe('/identity/auth/google?language=en');
    expect(googleSignInPath(null)).toBe('/identity/auth/google');
  });

  it('sends the Arabic page’s language with the native ID token', async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const server = fakeServer({
      'GET /identity/auth/google/config': () => json({ enabled: true }),
      'POST /identity/auth/google/mobile': () => json({ accessToken: 'a', refreshToken: 'r', role: 'admin' }),
    });
    renderWithApp(
      <MemoryRouter>
        <GoogleButton />
      </MemoryRouter>,
    );
    const button = screen.getByRole('button', { name: 'تسجيل الدخول عبر Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(server.requests.some((r) => r.method === 'POST')).toBe(true));
    const exchange = server.requests.find((r) => r.path === '/identity/auth/google/mobile');
    expect(exchange?.body).toEqual({ token: 'google-id-token', language: 'ar' });
  });
});
