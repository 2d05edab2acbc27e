/** Usernames are lower-case without whitespace, applied as the user types. */
export function normalizeUsername(value: string): string {
  return value.replace(/\s+/g, '').toLowerCase();
}

/** The username suggested from first plus last name when the username field is still empty. */
export function usernameFromNames(firstName: string, lastName: string): string {
  return normalizeUsername(firstName + lastName);
}
