import { normalizeUsername, usernameFromNames } from './username';

describe('usernames', () => {
  it('are lower-cased and stripped of whitespace', () => {
    expect(normalizeUsername(' Ann Lee\t2 ')).toBe('annlee2');
  });

  it('are suggested from first plus last name', () => {
    expect(usernameFromNames('Mary Ann', ' Smith ')).toBe('maryannsmith');
  });
});
