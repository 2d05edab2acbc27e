/** The server's longest name and username, in characters. */
export const NAME_MAX = 100;
export const USERNAME_MAX = 32;

/** Usernames are lower-case without whitespace, applied as the user types. */
export function normalizeUsername(value: string): string {
  return value.replace(/\s+/g, '').toLowerCase();
}

/**
 * The username suggested from first plus last name when the username field is still empty: only
 * the characters a username may hold (a-z, 0-9, `.`, `_`, `-`), at most `USERNAME_MAX`.
 */
export function usernameFromNames(firstName: string, lastName: string): string {
  return normalizeUsername(firstName + lastName)
    .replace(/[^a-z0-9._-]/g, '')
    .slice(0, USERNAME_MAX);
}
