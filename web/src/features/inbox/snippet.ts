import type { TextPart } from './highlight';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function unescape(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * Reads a search snippet (HTML-escaped text with the matches in `<mark>`…`</mark>`, as the server
 * writes it) into plain text parts, so it renders as React text and never as HTML.
 */
export function snippetParts(snippet: string): TextPart[] {
  return snippet
    .split(/(<mark>[\s\S]*?<\/mark>)/)
    .filter((piece) => piece !== '')
    .map((piece) =>
      piece.startsWith('<mark>') && piece.endsWith('</mark>')
        ? { text: unescape(piece.slice('<mark>'.length, -'</mark>'.length)), match: true }
        : { text: unescape(piece), match: false },
    );
}
