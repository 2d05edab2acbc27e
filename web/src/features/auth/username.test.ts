import { normalizeUsername, usernameFromNames } from './username';

describe('usernames', () => {
  it('are lower-cased and stripped of whitespace', () => {
    expect(normalizeUsername(' Ann Lee\t2 ')).toBe('annlee2');
  });

  it('are suggested from first plus last name', () => {
    expect(usernameFromNames('Mary Ann', ' Smith ')).toBe('maryannsmith');
  });

  it('are suggested with only the characters a username may hold, at most 32', () => {
    expect(usernameFromNames('Zoë', "O'Neil-Ali")).toBe('zooneil-ali');
    expect(usernameFromNames('x'.repeat(40), '')).toHaveLength(32);
  });
});
