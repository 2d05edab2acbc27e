import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../../testing/render';
import type { SearchResult } from '../api/search-api';
import { MessageSearchResults } from './message-search-results';

const hit: SearchResult = {
  conversation_id: '1555_16505551234',
  phone_number: '16505551234',
  name: 'Sheena',
  message_id: 'wamid.1',
  timestamp: '2025-11-21T04:40:00.000Z',
  snippet: '&lt;img src=x onerror=alert(1)&gt; <mark>hello</mark>',
};

describe('message search results', () => {
  it('shows the snippet as text with the hit marked, and opens a hit', async () => {
    const onOpen = vi.fn<(hit: SearchResult) => void>();
    renderWithApp(<MessageSearchResults search={{ active: true, results: [hit], loading: false, failed: false }} onOpen={onOpen} />);
    const section = screen.getByRole('region', { name: 'Messages' });
    const button = screen.getByRole('button', { name: /Sheena/ });
    expect(section).toContainElement(button);
    expect(button.querySelector('mark')).toHaveTextContent('hello');
    expect(button.querySelector('img')).toBeNull();
    expect(button).toHaveTextContent('<img src=x onerror=alert(1)> hello');
    await userEvent.click(button);
    expect(onOpen).toHaveBeenCalledWith(hit);
  });

  it('says when nothing matches', () => {
    renderWithApp(<MessageSearchResults search={{ active: true, results: [], loading: false, failed: false }} onOpen={() => undefined} />);
    expect(screen.getByText('No messages match')).toBeInTheDocument();
  });
});
