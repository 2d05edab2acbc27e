import { sentHeader } from './template-header';

const header = (parameter: object) => [{ type: 'header', parameters: [parameter] }, { type: 'body', parameters: [] }];

describe('sent template header', () => {
  it('serves a kept image, video or document by its media id', () => {
    expect(sentHeader(header({ type: 'image', image: { id: 'abc123' } }))).toEqual({ kind: 'image', media: { media_url: '/api/media/abc123' } });
    expect(sentHeader(header({ type: 'video', video: { link: 'https://cdn.example/v.mp4' } }))).toEqual({
      kind: 'video',
      media: { media_url: 'https://cdn.example/v.mp4' },
    });
    expect(sentHeader(header({ type: 'document', document: { id: 'd1', filename: 'terms.pdf' } }))).toEqual({
      kind: 'document',
      media: { media_url: '/api/media/d1', mime_type: 'application/pdf', filename: 'terms.pdf' },
    });
  });

  it('reads a location header with its name, address and coordinates', () => {
    const location = { latitude: 30.0444, longitude: 31.2357, name: 'Cairo office', address: 'Tahrir Sq.' };
    expect(sentHeader(header({ type: 'location', location }))).toEqual({ kind: 'location', ...location });
  });

  it('has nothing to show for a text header, no header or no components', () => {
    expect(sentHeader(header({ type: 'text', text: 'Ana' }))).toBeNull();
    expect(sentHeader([{ type: 'body', parameters: [] }])).toBeNull();
    expect(sentHeader(undefined)).toBeNull();
    expect(sentHeader(header({ type: 'image', image: {} }))).toBeNull();
  });
});
