// Fixtures shared by the profile tests (imported by tests only).

/** An owner's profile as the server answers it, with every credential set. */
export const OWNER_PROFILE = {
  _id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'admin',
  language: 'en',
  phoneNumberId: '1065',
  phoneNumber: '15550001234',
  whatsappBusinessAccountID: '1022',
  appId: 'app-1',
  accessToken: 'EAAG',
  verifyToken: 'verify',
  appSecretSet: true,
};

/** An agent of that owner. */
export const AGENT_BO = { _id: 'a1', firstName: 'Bo', lastName: 'Agent', username: 'bo', email: 'bo@example.com' };
