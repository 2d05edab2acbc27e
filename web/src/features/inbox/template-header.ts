// What a sent template's header shows in the conversation, read from the header parameter of
// the components it was sent with (`content.components`).
import type { MediaRef } from '../../lib/api/types';

export type SentHeader =
  | { kind: 'image' | 'video' | 'document'; media: MediaRef }
  | { kind: 'location'; latitude: number; longitude: number; name: string; address: string };

interface Parameter {
  type?: string;
  image?: { id?: string; link?: string };
  video?: { id?: string; link?: string };
  document?: { id?: string; link?: string; filename?: string };
  location?: { latitude?: number | string; longitude?: number | string; name?: string; address?: string };
}

function headerParameter(components: unknown): Parameter | undefined {
  if (!Array.isArray(components)) return undefined;
  const header = components.find(
    (component): component is { parameters?: Parameter[] } =>
      typeof component === 'object' && component !== null && String((component as { type?: unknown }).type).toLowerCase() === 'header',
  );
  return header?.parameters?.[0];
}

/** The media or location of a sent template's header, or null when it has neither. */
export function sentHeader(components: unknown): SentHeader | null {
  const parameter = headerParameter(components);
  const kind = parameter?.type;
  if (kind === 'image' || kind === 'video' || kind === 'document') {
    const media = parameter?.[kind];
    // A kept upload is served by id; a header sent by link is shown from the link.
    const url = media?.id ? `/api/media/${encodeURIComponent(media.id)}` : media?.link;
    if (!url) return null;
    const filename = kind === 'document' ? parameter?.document?.filename : undefined;
    return { kind, media: { media_url: url, ...(kind === 'document' ? { mime_type: 'application/pdf', filename } : {}) } };
  }
  if (kind === 'location' && parameter?.location) {
    const { latitude, longitude, name, address } = parameter.location;
    return { kind, latitude: Number(latitude), longitude: Number(longitude), name: name ?? '', address: address ?? '' };
  }
  return null;
}
