import { describe, expect, it } from 'vitest';
import { snippetParts } from './snippet';

describe('snippetParts', () => {
  it('marks the hits and unescapes the rest as plain text', () => {
    expect(snippetParts('&lt;script&gt;alert(1)&lt;/script&gt; <mark>hello</mark> &amp; bye')).toEqual([
      { text: '<script>alert(1)</script> ', match: false },
      { text: 'hello', match: true },
      { text: ' & bye', match: false },
    ]);
  });

  it('keeps several marks and Arabic text', () => {
    expect(snippetParts('<mark>مُحَمَّد</mark> و <mark>محمد</mark>')).toEqual([
      { text: 'مُحَمَّد', match: true },
      { text: ' و ', match: false },
      { text: 'محمد', match: true },
    ]);
  });

  it('reads text without marks whole', () => {
    expect(snippetParts('It&#39;s &quot;here&quot;')).toEqual([{ text: 'It\'s "here"', match: false }]);
  });
});
