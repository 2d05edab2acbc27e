import { highlightParts } from './highlight';

const marked = (text: string, query: string) =>
  highlightParts(text, query)
    .filter((part) => part.match)
    .map((part) => part.text);

describe('search highlighting', () => {
  it('marks every case-insensitive match', () => {
    expect(highlightParts('Anna and ANN', 'ann')).toEqual([
      { text: 'Ann', match: true },
      { text: 'a and ', match: false },
      { text: 'ANN', match: true },
    ]);
  });

  it('marks digits inside a phone number', () => {
    expect(highlightParts('15551234', '555')).toEqual([
      { text: '1', match: false },
      { text: '555', match: true },
      { text: '1234', match: false },
    ]);
  });

  it('leaves text alone without a query', () => {
    expect(highlightParts('Anna', '  ')).toEqual([{ text: 'Anna', match: false }]);
  });

  it('folds case fully, marking the original letters even when folding changes the length', () => {
    expect(highlightParts('Hotel Straße 5', 'strasse')).toEqual([
      { text: 'Hotel ', match: false },
      { text: 'Straße', match: true },
      { text: ' 5', match: false },
    ]);
    expect(marked('STRASSE', 'straß')).toEqual(['STRASS']);
    expect(marked('ﬁle and FILE', 'file')).toEqual(['ﬁle', 'FILE']);
    expect(marked('ΟΔΟΣ οδος', 'οδοσ')).toEqual(['ΟΔΟΣ', 'οδος']);
    expect(marked('Große Straẞe', 'STRASSE')).toEqual(['Straẞe']);
  });

  it('finds İstanbul by istanbul, composed or typed with a combining dot', () => {
    expect(highlightParts('İstanbul office', 'istanbul')).toEqual([
      { text: 'İstanbul', match: true },
      { text: ' office', match: false },
    ]);
    expect(marked('I\u0307stanbul', 'ISTANBUL')).toEqual(['I\u0307stanbul']);
    expect(marked('istanbul', 'İstanbul')).toEqual(['istanbul']);
    // The dotless ı has no case folding: it is not i.
    expect(marked('ılık', 'ilik')).toEqual([]);
  });

  it('matches accents composed or decomposed, and marks a letter with its accent', () => {
    expect(marked('Cafe\u0301 noir', 'café')).toEqual(['Cafe\u0301']);
    expect(marked('Café noir', 'cafe\u0301')).toEqual(['Café']);
    expect(marked('Lucía Pérez', 'lucia pe')).toEqual(['Lucía Pé']);
    expect(marked('Pérez, Lucía', 'lucia')).toEqual(['Lucía']);
  });

  it('marks Arabic words with their marks, and letter forms folded together', () => {
    expect(marked('يا مُحَمَّد', 'محمد')).toEqual(['مُحَمَّد']);
    expect(marked('أحمد', 'احمد')).toEqual(['أحمد']);
  });

  it('marks a part of a letter that folds apart as the whole letter', () => {
    expect(highlightParts('Straße', 'stras')).toEqual([
      { text: 'Straß', match: true },
      { text: 'e', match: false },
    ]);
  });

  it('marks words in any order, the last as a prefix, and a phrase across punctuation', () => {
    expect(marked('Smith, John', 'john smi')).toEqual(['Smi', 'John']);
    expect(marked('John - Smith', 'john smith')).toEqual(['John - Smith']);
  });

  it('marks a query without letters or digits as typed', () => {
    expect(marked('Ann 😀 Lee', '😀')).toEqual(['😀']);
  });
});
