import { caseFold, queryWords, wordsOf } from './search-words';

// The server's folding (server/src/search_text.rs), the same cases as its tests.
const folded = (text: string) => wordsOf(text).map((word) => word.folded).join(' ');

describe('search words', () => {
  it('fold case and punctuation to plain words', () => {
    expect(folded("Hello, WORLD! It's me.")).toBe('hello world it s me');
  });

  it('drop Arabic marks and tatweel, and fold letter forms and digits', () => {
    expect(folded('مُحَمَّد مـــرحبا هٰذا')).toBe('محمد مرحبا هذا');
    expect(folded('أحمد إبراهيم آمال ٱلله')).toBe('احمد ابراهيم امال الله');
    expect(folded('مستشفى مدرسة')).toBe('مستشفي مدرسه');
    expect(folded('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789 0123456789');
  });

  it('fold a word the same composed or decomposed', () => {
    expect(folded('Cafe\u0301 RE\u0301SUME\u0301 caf\u00e9')).toBe('cafe resume cafe');
    expect(folded('q\u0301uiet')).toBe('quiet');
    expect(folded('\u0627\u0653مال')).toBe('امال');
    expect(folded('か\u3099き が')).toBe('がき が');
  });

  it('drop the accents of Latin, Greek and Cyrillic letters, keeping letters of their own', () => {
    expect(folded('Lucía Pérez, José llegó mañana. Ça GRÜẞE façade')).toBe(
      'lucia perez jose llego manana ca grusse facade',
    );
    expect(folded('São João Ağrı Şişli Nguyễn Thị Ánh Việt')).toBe('sao joao agrı sisli nguyen thi anh viet');
    expect(folded('ΣΩΚΡΆΤΗΣ ᾼ Ёлка')).toBe('σωκρατησ α елка');
    expect(folded('Søren Đặng Łódź æ')).toBe('søren đang łodz æ');
    expect(folded('किताब שָׁלוֹם')).toBe('किताब שָׁלוֹם');
    expect(queryWords('LUCÍA pérez').words).toEqual(['lucia', 'perez']);
  });

  it('fold case fully, beyond lower case', () => {
    expect(folded('Straße STRASSE straẞe')).toBe('strasse strasse strasse');
    expect(folded('ﬁle ΟΔΟΣ οδος')).toBe('file οδοσ οδοσ');
    expect(folded('\u01F0 J\u030C')).toBe('j j');
    expect(folded('İstanbul I\u0307STANBUL istanbul')).toBe('istanbul istanbul istanbul');
  });

  it('case fold as CaseFolding.txt does where lower case is not enough', () => {
    expect(['ß', 'ẞ', 'ﬁ', 'ς', 'İ', 'ſ', 'K', 'µ', 'ı', 'Ꮿ', 'ꮿ', 'ᏸ'].map(caseFold)).toEqual([
      'ss', 'ss', 'fi', 'σ', 'i', 's', 'k', 'μ', 'ı', 'Ꮿ', 'Ꮿ', 'Ᏸ',
    ]);
  });

  it('know where each word stands in the text', () => {
    expect(wordsOf('  ـمرحبا, Straße!').map(({ start, end }) => [start, end])).toEqual([
      [3, 8],
      [10, 16],
    ]);
  });

  it('read a query as the server does: its words, or one number', () => {
    expect(queryWords('Hello  Wörld').words).toEqual(['hello', 'world']);
    expect(queryWords('STRAß').words).toEqual(['strass']);
    expect(queryWords('+966 55-512').words).toEqual(['96655512']);
    expect(queryWords('٠٥٥٥').words).toEqual(['0555']);
    expect(queryWords('room 12').words).toEqual(['room', '12']);
    expect(queryWords('  ?! ').words).toEqual([]);
  });

  it('tell where the first words of a longer query end', () => {
    expect(queryWords('a b c', 2).cut).toBe(3);
    expect(queryWords('a b', 2).cut).toBeUndefined();
    expect(queryWords('1 2 3', 2).cut).toBeUndefined();
  });
});
