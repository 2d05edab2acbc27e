import 'fake-indexeddb/auto';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Blob as NodeBlob } from 'node:buffer';
import { saveSession } from '../../../lib/api/session-store';
import { clearMediaCache } from '../../../lib/media/media-cache';
import { putThumbnail } from '../../../lib/offline/db';
import { fakeServer } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { DocumentCard } from './document-card';

describe('document card', () => {
  beforeEach(() => {
    clearMediaCache();
    saveSession({ accessToken: 'access', refreshToken: 'refresh' });
    // jsdom's Blob cannot be structured-cloned into (fake) IndexedDB; browsers' and Node's can.
    vi.stubGlobal('Blob', NodeBlob);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:thumbnail', revokeObjectURL: () => undefined }));
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows a stored first page and page count without fetching the PDF', async () => {
    await putThumbnail('/api/media/41', { image: new Blob(['jpeg'], { type: 'image/jpeg' }), pages: 3 });
    const { requests } = fakeServer({});
    renderWithApp(<DocumentCard media={{ media_url: '/api/media/41', mime_type: 'application/pdf', filename: 'offer.pdf' }} />);
    expect(await screen.findByRole('img', { name: 'First page of offer.pdf' })).toHaveAttribute('src', 'blob:thumbnail');
    expect(screen.getByText('3 pages')).toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it('falls back to the file-type icon when the PDF cannot be fetched', async () => {
    const { requests } = fakeServer({});
    renderWithApp(<DocumentCard media={{ media_url: '/api/media/42', mime_type: 'application/pdf', filename: 'lost.pdf' }} />);
    const card = screen.getByRole('button', { name: 'Open document lost.pdf' });
    expect(card.querySelector('[aria-busy="true"]')).toHaveTextContent('PDF');
    await vi.waitFor(() => expect(card.querySelector('[aria-busy="false"]')).toHaveTextContent('PDF'));
    expect(requests.map((request) => request.path)).toEqual(['/api/media/42']);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows other documents by their file type without drawing anything', () => {
    const { requests } = fakeServer({});
    renderWithApp(<DocumentCard media={{ media_url: '/api/media/43', mime_type: 'application/msword', filename: 'terms.doc' }} />);
    expect(screen.getByRole('button', { name: 'Open document terms.doc' })).toHaveTextContent('DOC');
    expect(requests).toEqual([]);
  });

  it('downloads the file when opened, never showing it as a page of the app', async () => {
    fakeServer({ 'GET /api/media/44': () => new Response('<script>steal()</script>', { headers: { 'Content-Type': 'application/octet-stream' } }) });
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWithApp(<DocumentCard media={{ media_url: '/api/media/44', mime_type: 'text/html', filename: 'invoice.html' }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open document invoice.html' }));
    await vi.waitFor(() => expect(clicked).toHaveLength(1));
    const [link] = clicked;
    expect(link?.download).toBe('invoice.html');
    expect(link?.getAttribute('href')).toBe('blob:thumbnail');
    expect(opened).not.toHaveBeenCalled();
  });
});
