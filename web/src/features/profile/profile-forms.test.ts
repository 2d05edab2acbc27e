import { agentFieldOf, agentFormFrom, agentPayload, profileFormFrom, profilePatch } from './profile-forms';
import { AGENT_BO, OWNER_PROFILE } from './test-fixtures';

// In Arabic, to see the language carried through.
const PROFILE = { ...OWNER_PROFILE, language: 'ar' };

describe('profile form', () => {
  it('starts from the profile, with a blank app secret', () => {
    const form = profileFormFrom(PROFILE);
    expect(form).toMatchObject({ firstName: 'Ada', language: 'ar', phoneNumberId: '1065', accessToken: 'EAAG', appSecret: '' });
    expect(profileFormFrom({ _id: 'u2' })).toMatchObject({ firstName: '', language: 'en', verifyToken: '' });
  });

  it('sends the credentials from the owner, and the app secret only when typed', () => {
    const form = profileFormFrom(PROFILE);
    expect(profilePatch(form, true)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      language: 'ar',
      phoneNumberId: '1065',
      accessToken: 'EAAG',
      verifyToken: 'verify',
      phoneNumber: '15550001234',
      whatsappBusinessAccountID: '1022',
      appId: 'app-1',
    });
    expect(profilePatch({ ...form, appSecret: 's3cret' }, true).appSecret).toBe('s3cret');
    expect(profilePatch({ ...form, appSecret: '   ' }, true)).not.toHaveProperty('appSecret');
  });

  it('sends only names and language from an agent', () => {
    expect(profilePatch({ ...profileFormFrom(PROFILE), appSecret: 'x' }, false)).toEqual({ firstName: 'Ada', lastName: 'Lovelace', language: 'ar' });
  });
});

describe('agent form', () => {
  it('edits with a blank password, which is left out so the server keeps it', () => {
    const form = agentFormFrom(AGENT_BO);
    expect(form.password).toBe('');
    expect(agentPayload(form, true)).toEqual({ firstName: 'Bo', lastName: 'Agent', username: 'bo', email: 'bo@example.com' });
    expect(agentPayload({ ...form, password: 'new-password' }, true).password).toBe('new-password');
  });

  it('always sends the password when creating', () => {
    expect(agentPayload({ ...agentFormFrom(AGENT_BO), password: '' }, false)).toHaveProperty('password', '');
  });
});

describe('the agent field of a refusal', () => {
  it('is the field its text starts with, whatever its case', () => {
    expect(agentFieldOf(['Username already exists'])).toBe('username');
    expect(agentFieldOf([undefined, 'email is not a valid email address'])).toBe('email');
    expect(agentFieldOf(['password is one of the most common passwords; choose another'])).toBe('password');
    expect(agentFieldOf(['firstName must be at most 60 characters'])).toBe('firstName');
  });

  it('is none when the text names no field or two', () => {
    expect(agentFieldOf(['Username or email already exists'])).toBeNull();
    expect(agentFieldOf(['Too many attempts; try again in 5 seconds', undefined])).toBeNull();
  });
});
