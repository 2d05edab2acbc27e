export type LinkPart = { text: string; href?: string };

const URL_PATTERN = /\b(https?:\/\/[^\s<]+[^\s<.,:;"')\]!?]|www\.[^\s<]+[^\s<.,:;"')\]!?])/gi;

/** Splits text into plain parts and auto-linked URLs. */
export function linkify(text: string): LinkPart[] {
  const parts: LinkPart[] = [];
  let from = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const at = match.index;
    if (at > from) parts.push({ text: text.slice(from, at) });
    const url = match[0];
    parts.push({ text: url, href: url.startsWith('www.') ? `https://${url}` : url });
    from = at + url.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}
