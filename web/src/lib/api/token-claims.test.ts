import { signInAs } from '../../testing/session';
import { accountOf, currentAccount } from './token-claims';
import { clearSession } from './session-store';

const token = (claims: object) => `header.${btoa(JSON.stringify(claims))}.signature`;

describe('the account a token belongs to', () => {
  it('is the business and the user together, so the same user id in two businesses differs', () => {
    expect(accountOf(token({ sub: 'u1', bid: 'b1' }))).toBe('b1:u1');
    expect(accountOf(token({ sub: 'u1', bid: 'b2' }))).not.toBe(accountOf(token({ sub: 'u1', bid: 'b1' })));
  });

  it('is unknown for a token without both ids or that cannot be read', () => {
    expect(accountOf(token({ sub: 'u1' }))).toBeNull();
    expect(accountOf(token({ bid: 'b1' }))).toBeNull();
    expect(accountOf('not-a-jwt')).toBeNull();
  });

  it('follows the signed-in session', () => {
    signInAs('u7', 'agent', 'b3');
    expect(currentAccount()).toBe('b3:u7');
    clearSession();
    expect(currentAccount()).toBeNull();
  });
});
