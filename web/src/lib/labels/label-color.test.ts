import { isLabelColor, textColorOn } from './label-color';

describe('label colours', () => {
  it('put dark text on light colours and light text on dark ones', () => {
    expect(textColorOn('#ffffff')).toBe('#000000');
    expect(textColorOn('#FBCA04')).toBe('#000000');
    expect(textColorOn('#000000')).toBe('#ffffff');
    expect(textColorOn('#5319E7')).toBe('#ffffff');
    expect(textColorOn('#B60205')).toBe('#ffffff');
  });

  it('accept only #RRGGBB', () => {
    expect(isLabelColor('#1a2B3c')).toBe(true);
    for (const bad of ['1a2b3c', '#1a2b3', '#1a2b3cd', '#gggggg', 'red']) expect(isLabelColor(bad)).toBe(false);
  });
});
