import { highlightParts } from './highlight';

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
});
