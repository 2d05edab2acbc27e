// The server words its refusals in English (docs/API.md). In English the user reads them as sent;
// in another interface language the well-known ones (sign-in, registration, sessions, field rules,
// duplicates) are translated, and any other leaves the screen's own message for what failed.
import { getI18n } from 'react-i18next';

interface Translation {
  key: string;
  values?: Record<string, string | number>;
}

/** Refusals known by their code, whatever their wording. */
const BY_CODE: Record<string, string> = {
  invalid_credentials: 'serverErrors.invalidCredentials',
  token_expired: 'serverErrors.sessionExpired',
  token_revoked: 'serverErrors.sessionRevoked',
};

/** Texts the server sends word for word. */
const EXACT: Record<string, string> = {
  'Invalid credentials': 'serverErrors.invalidCredentials',
  'Forbidden: Token expired': 'serverErrors.sessionExpired',
  'Invalid or expired refresh token': 'serverErrors.sessionExpired',
  'Session revoked; please sign in again': 'serverErrors.sessionRevoked',
  'Refresh token was already used; please sign in again': 'serverErrors.sessionRevoked',
  'Username already exists': 'serverErrors.usernameTaken',
  'Email already exists': 'serverErrors.emailTaken',
  'Username or email already exists': 'serverErrors.usernameOrEmailTaken',
  'email is not a valid email address': 'serverErrors.invalidEmail',
  'username must be 3 to 32 characters': 'serverErrors.usernameLength',
  "username may only contain letters a-z, digits, '.', '_' and '-'": 'serverErrors.usernameCharacters',
  'username must not contain @': 'serverErrors.usernameAt',
  'password is one of the most common passwords; choose another': 'serverErrors.commonPassword',
  'password must not be the username or the email': 'serverErrors.passwordIsName',
};

/** Texts with a part that varies, named by the pattern's groups; a field is named only when known. */
const PATTERNS: { pattern: RegExp; key: string }[] = [
  { pattern: /^Too many attempts; try again in (?<count>\d+) seconds$/, key: 'serverErrors.tooManyAttempts' },
  { pattern: /^(?<field>\w+(?: \w+)?) is required$/, key: 'serverErrors.required' },
  { pattern: /^(?<field>\w+(?: \w+)?) must be at most (?<count>\d+) characters$/, key: 'serverErrors.tooLong' },
  { pattern: /^(?<field>\w+) must be at least (?<count>\d+) characters$/, key: 'serverErrors.tooShort' },
  { pattern: /^(?<field>\w+) must not contain invisible or direction-changing characters$/, key: 'serverErrors.hiddenCharacters' },
  { pattern: /^(?<field>\w+) must not contain control characters$/, key: 'serverErrors.controlCharacters' },
  { pattern: /^A contact with the number (?<phone>\S+) already exists$/, key: 'serverErrors.contactExists' },
  { pattern: /^A label named (?<name>.+) already exists$/, key: 'serverErrors.labelExists' },
  { pattern: /^An automated reply with the trigger "(?<trigger>.+)" already exists$/, key: 'serverErrors.triggerExists' },
];

function translationOf(code: string | undefined, texts: (string | undefined)[]): Translation | null {
  const byCode = code ? BY_CODE[code] : undefined;
  if (byCode) return { key: byCode };
  for (const text of texts) {
    if (!text) continue;
    const exact = EXACT[text];
    if (exact) return { key: exact };
    for (const { pattern, key } of PATTERNS) {
      const groups = text.match(pattern)?.groups;
      if (!groups) continue;
      // A count is a number, so that i18next picks its plural form.
      const values = Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, name === 'count' ? Number(value) : value]));
      return { key, values };
    }
  }
  return null;
}

/**
 * What the user reads of a refusal: `shown` (the text the screen picked) in English; in another
 * language the translation of a known code or of one of `texts`, else undefined (the screen's own
 * message then stands in).
 */
export function refusalText(shown: string | undefined, code: string | undefined, texts: (string | undefined)[]): string | undefined {
  const i18n = getI18n();
  const language = i18n?.resolvedLanguage ?? i18n?.language;
  if (!i18n || !language || language.startsWith('en')) return shown || undefined;
  const found = translationOf(code, texts);
  if (!found) return undefined;
  const values = { ...found.values };
  if (typeof values.field === 'string') {
    // "Response text" (the replies' wording) is looked up as responseText, "firstName" as itself.
    const name = values.field.replace(/ (\w)/g, (_, letter: string) => letter.toUpperCase()).replace(/^\w/, (letter) => letter.toLowerCase());
    const field = `serverErrors.fields.${name}`;
    if (!i18n.exists(field)) return undefined;
    values.field = i18n.t(field);
  }
  return i18n.t(found.key, values);
}
