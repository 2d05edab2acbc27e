import type { Conversation } from '../../lib/api/types';
import { cannedValuesOf, fillCanned, slashQueryAt } from './canned';

describe('canned reply text', () => {
  it('fills the known variables and leaves others as written', () => {
    const values = { name: 'Amira', phone: '4915112345678', agent: 'Sam' };
    expect(fillCanned('Hi {{name}} ({{ phone }}), {{agent}} here. {{other}}', values)).toBe('Hi Amira (4915112345678), Sam here. {{other}}');
  });

  it('finds the slash word under the caret only at the start or after whitespace', () => {
    expect(slashQueryAt('/he', 3)).toEqual({ start: 0, end: 3, query: 'he' });
    expect(slashQueryAt('ok\n/he', 6)).toEqual({ start: 3, end: 6, query: 'he' });
    expect(slashQueryAt('a/he', 4)).toBeNull();
    expect(slashQueryAt('/he there', 9)).toBeNull();
  });

  it('uses the username for a customer without a name, and no phone for one without a phone', () => {
    const row = { phone_number: null, user_id: 'US.1', username: '@amira', name: null, conversation_id: 'p_US.1' } as Conversation;
    expect(cannedValuesOf(row, 'Sam')).toEqual({ name: '@amira', phone: '', agent: 'Sam' });
  });
});
