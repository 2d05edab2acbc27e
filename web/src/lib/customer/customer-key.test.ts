import { customerKey, identityOfKey, isBsuid, keyOfConversation } from './customer-key';

describe('customer keys', () => {
  it('tells a BSUID (and a parent BSUID) from phone digits', () => {
    expect(isBsuid('US.13491208655302741918')).toBe(true);
    expect(isBsuid('US.ENT.11815799212886844830')).toBe(true);
    expect(isBsuid('16505551234')).toBe(false);
    expect(isBsuid('us.123')).toBe(false);
  });

  it('reads the key after the last underscore of a conversation id, letters and dots included', () => {
    expect(keyOfConversation('106540352242922_US.13491208655302741918')).toBe('US.13491208655302741918');
    expect(keyOfConversation('106540352242922_16505551234')).toBe('16505551234');
  });

  it('keys a row by its phone when known, else by its BSUID', () => {
    expect(customerKey({ phone_number: '16505551234', user_id: 'US.1', conversation_id: 'pn_16505551234' })).toBe('16505551234');
    expect(customerKey({ phone_number: null, user_id: 'US.1', conversation_id: 'pn_US.1' })).toBe('US.1');
    expect(customerKey({ phone_number: null, conversation_id: 'pn_US.2' })).toBe('US.2');
  });

  it('gives a BSUID key no phone', () => {
    expect(identityOfKey('US.1')).toEqual({ phone_number: null, user_id: 'US.1' });
    expect(identityOfKey('1555')).toEqual({ phone_number: '1555', user_id: null });
  });
});
