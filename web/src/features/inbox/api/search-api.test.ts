import { SEARCH_MAX_WORDS, searchedText } from './search-api';

const letters = 'abcdefghijklm'.split('');

describe('the searched text', () => {
  it('is the query as typed while it holds at most the most words', () => {
    expect(searchedText('  Hello, WORLD!  ')).toEqual({ text: 'Hello, WORLD!', cut: false });
    const twelve = letters.slice(0, SEARCH_MAX_WORDS).join(',');
    expect(searchedText(twelve)).toEqual({ text: twelve, cut: false });
  });

  it('counts words split by punctuation as the server does, not by spaces alone', () => {
    expect(searchedText(letters.join(','))).toEqual({ text: 'a,b,c,d,e,f,g,h,i,j,k,l', cut: true });
    // "it's" is two words, "e_f" too.
    expect(searchedText("it's a-b.c/d e_f g+h i(j) k:l")).toEqual({ text: "it's a-b.c/d e_f g+h i(j", cut: true });
  });

  it('keeps the kept words as typed, with their marks', () => {
    const typed = `${'مُحَمَّد '.repeat(SEARCH_MAX_WORDS)}آخر`;
    expect(searchedText(typed)).toEqual({ text: 'مُحَمَّد '.repeat(SEARCH_MAX_WORDS).trim(), cut: true });
    // A combining accent belongs to the word before it.
    const accented = `${'cafe\u0301 '.repeat(SEARCH_MAX_WORDS)}x`;
    expect(searchedText(accented).text).toBe('cafe\u0301 '.repeat(SEARCH_MAX_WORDS).trim());
  });

  it('does not count what folding drops or what is no word', () => {
    // Tatweel and tashkeel are inside a word; emoji and symbols separate words.
    const typed = `${'a 😀 '.repeat(SEARCH_MAX_WORDS)} ـ ـَ`;
    expect(searchedText(typed)).toEqual({ text: typed.trim(), cut: false });
  });

  it('reads digits and phone separators as one number, however many groups', () => {
    const number = '1 2 3 4 5 6 7 8 9 10 11 12 13 14';
    expect(searchedText(number)).toEqual({ text: number, cut: false });
    expect(searchedText('+966 (55) 512-34-56 ٠٥٥').cut).toBe(false);
  });
});
