import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Message } from '../../../lib/api/types';
import { saveSession } from '../../../lib/api/session-store';
import { clearMediaCache } from '../../../lib/media/media-cache';
import { fakeServer } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { MessageBubble } from './message-bubble';

const message = (type: Message['type'], content: Message['content'], extra: Partial<Message> = {}): Message => ({
  message_id: `m-${type}`,
  timestamp: '2026-03-04T09:05:00Z',
  status: 'delivered',
  direction: 'incoming',
  type,
  content,
  ...extra,
});

function show(m: Message, onReply = vi.fn<(text: string) => void>(), onRetry = vi.fn<(id: string) => void>()) {
  renderWithApp(<MessageBubble message={m} onReply={onReply} onRetry={onRetry} onOpenQuote={vi.fn<(id: string) => void>()} />);
  return { onReply, onRetry };
}

describe('message rendering by kind', () => {
  beforeEach(() => {
    clearMediaCache();
    saveSession({ accessToken: 'access', refreshToken: 'refresh' });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:media', revokeObjectURL: () => undefined }));
  });

  it('links URLs in text', () => {
    show(message('text', { text: 'See https://example.com/a?b=1, thanks' }));
    expect(screen.getByRole('link', { name: 'https://example.com/a?b=1' })).toHaveAttribute('href', 'https://example.com/a?b=1');
  });

  it('fetches images with the session and opens them full size', async () => {
    const { requests } = fakeServer({ 'GET /api/media/7': () => new Response('png', { headers: { 'Content-Type': 'image/png' } }) });
    show(message('image', { caption: 'Receipt', image: { media_url: '/api/media/7', mime_type: 'image/png' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Open image' }));
    expect(screen.getByRole('dialog', { name: 'Image viewer' })).toBeInTheDocument();
    expect(screen.getByText('Receipt')).toBeInTheDocument();
    expect(requests[0]?.headers.Authorization).toBe('Bearer access');
  });

  it('says so when media cannot be fetched', async () => {
    fakeServer({});
    show(message('image', { image: { media_url: '/api/media/8', mime_type: 'image/png' } }));
    expect(await screen.findByText('Could not load the media.')).toBeInTheDocument();
  });

  it('says audio is sending while a voice note is on its way', () => {
    show(message('audio', { audio: { media_url: 'blob:note', mime_type: 'audio/ogg' } }, { direction: 'outgoing', status: 'pending' }));
    expect(screen.getByText('Audio is sending…')).toBeInTheDocument();
  });

  it('says errorLoadingAudio when a voice note cannot be fetched', async () => {
    fakeServer({});
    show(message('audio', { audio: { media_url: '/api/media/8', mime_type: 'audio/ogg' } }));
    expect(await screen.findByText('Could not load the audio.')).toBeInTheDocument();
  });

  it('shows a document as a card with its file type', () => {
    show(message('document', { document: { media_url: '/api/media/9', mime_type: 'application/pdf', filename: 'invoice.pdf' } }));
    expect(screen.getByRole('button', { name: 'Open document invoice.pdf' })).toHaveTextContent('PDF');
  });

  it('embeds a map for a location with a link', () => {
    show(message('location', { location: { latitude: 52.5, longitude: 13.4, name: 'Shop' } }));
    expect(screen.getByTitle('Shop')).toHaveAttribute('src', expect.stringContaining('bbox=13.39500,52.49500,13.40500,52.50500'));
    expect(screen.getByRole('link', { name: 'Open in map' })).toHaveAttribute('href', expect.stringContaining('#map=16/52.5/13.4'));
  });

  it('totals an order', () => {
    show(
      message('order', {
        order: {
          product_items: [
            { product_retailer_id: 'tea', quantity: 2, item_price: 3, currency: 'EUR' },
            { product_retailer_id: 'cup', quantity: 1, item_price: 5, currency: 'EUR' },
          ],
        },
      }),
    );
    expect(screen.getByText('Order: 2 items')).toBeInTheDocument();
    expect(screen.getByText('Total: 11 EUR')).toBeInTheDocument();
  });

  it('shows template header, body, footer and buttons', () => {
    show(
      message('template', {
        template_structure: {
          header: { text: 'Order shipped' },
          body: 'Your parcel is on its way',
          footer: 'Reply STOP to opt out',
          buttons: [{ type: 'URL', text: 'Track', url: 'https://example.com/t' }],
        },
      }),
    );
    expect(screen.getByText('Order shipped')).toBeInTheDocument();
    expect(screen.getByText('Your parcel is on its way')).toBeInTheDocument();
    expect(screen.getByText('Reply STOP to opt out')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Track' })).toHaveAttribute('href', 'https://example.com/t');
  });

  it('shows a sent template\'s location header as a card without a map', () => {
    show(
      message('template', {
        template_structure: { header: { format: 'LOCATION', text: '' }, body: 'Find us here' },
        components: [
          { type: 'header', parameters: [{ type: 'location', location: { latitude: 30.0444, longitude: 31.2357, name: 'Cairo office', address: 'Tahrir Sq.' } }] },
        ],
      }),
    );
    const card = screen.getByRole('group', { name: 'Location' });
    expect(card).toHaveTextContent('Cairo office');
    expect(card).toHaveTextContent('Tahrir Sq.');
    expect(card).toHaveTextContent('30.0444, 31.2357');
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('sends the title of the chosen row of an interactive list', async () => {
    const { onReply } = show(
      message(
        'interactive',
        {
          body: 'Pick a size',
          interactive: {
            type: 'list',
            body: { text: 'Pick a size' },
            action: { button: 'Sizes', sections: [{ title: 'Shirts', rows: [{ id: 's', title: 'Small', description: 'S' }] }] },
          },
        },
        { direction: 'outgoing' },
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sizes' }));
    await userEvent.click(screen.getByRole('button', { name: /Small/ }));
    expect(onReply).toHaveBeenCalledWith('Small');
  });

  it('shows quick replies as chips', () => {
    show(message('text', { text: 'Choose', buttons: [{ id: 'y', title: 'Yes' }, { id: 'n', title: 'No' }] }));
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(screen.getByText('No')).toBeInTheDocument();
  });

  it('shows the buttons and the image header of an automated reply', async () => {
    fakeServer({ 'GET /api/media/reply.png': () => new Response('png', { headers: { 'Content-Type': 'image/png' } }) });
    show(
      message(
        'interactive',
        { text: 'Our prices', buttons: [{ id: 'more', title: 'More' }], image: { media_url: '/api/media/reply.png' } },
        { direction: 'outgoing' },
      ),
    );
    expect(screen.getByText('Our prices')).toBeInTheDocument();
    expect(screen.getByText('More')).toHaveClass('chip');
    expect(await screen.findByRole('button', { name: 'Open image' })).toBeInTheDocument();
  });

  it.each([
    ['sending', 'Sending'],
    ['sent', 'Sent'],
    ['delivered', 'Delivered'],
    ['read', 'Read'],
  ] as const)('marks an outgoing %s message', (status, label) => {
    show(message('text', { text: 'hi' }, { direction: 'outgoing', status }));
    expect(screen.getByRole('img', { name: label })).toHaveAttribute('data-status', status);
  });

  it('offers a retry on a failed message', async () => {
    const { onRetry } = show(message('text', { text: 'hi' }, { direction: 'outgoing', status: 'failed', message_id: 'tmp-1' }));
    expect(screen.getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('tmp-1');
  });

  it('shows the day and time on hover as dd/mm/yyyy', () => {
    show(message('text', { text: 'hi' }));
    const time = screen.getByText(/^\d\d:\d\d$/);
    expect(time.parentElement?.getAttribute('title')).toMatch(/^04\/03\/2026 \d\d:\d\d$/);
  });

  it('waits for a media fetch before showing it', async () => {
    fakeServer({ 'GET /api/media/10': () => new Response('png', { headers: { 'Content-Type': 'image/png' } }) });
    show(message('image', { image: { media_url: '/api/media/10', mime_type: 'image/png' } }));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open image' })).toBeInTheDocument());
  });

  it('shows a placeholder until the thumbnail is drawn, and plays the video on demand', async () => {
    const { requests } = fakeServer({ 'GET /api/media/11': () => new Response('mp4', { headers: { 'Content-Type': 'video/mp4' } }) });
    show(message('video', { video: { media_url: '/api/media/11', mime_type: 'video/mp4' } }));
    // jsdom decodes no video, so the thumbnail stays in the making.
    expect(screen.getByRole('img', { name: 'Video' })).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Play video' }));
    await waitFor(() => expect(screen.getByLabelText('Video')).toHaveAttribute('controls'));
    expect(requests.filter((request) => request.path === '/api/media/11').length).toBe(1);
  });
});
