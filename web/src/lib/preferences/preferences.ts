// Local preferences of the spec (section 3): language, theme and the remember-me values; and
// whether the user turned this device's notifications off.

export type Language = 'en' | 'ar';
export type Theme = 'dark' | 'light';

export function storedLanguage(): Language | null {
  const value = localStorage.getItem('language');
  return value === 'en' || value === 'ar' ? value : null;
}

export function storeLanguage(language: Language): void {
  localStorage.setItem('language', language);
}

export function storedTheme(): Theme {
  return localStorage.getItem('theme') === 'light' ? 'light' : 'dark';
}

/** The browser's bar above the app takes the colour of the app's header (`--panel` in styles.css). */
const BAR_COLOUR: Record<Theme, string> = { dark: '#161d24', light: '#ffffff' };

export function applyTheme(theme: Theme): void {
  localStorage.setItem('theme', theme);
  document.documentElement.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', BAR_COLOUR[theme]);
}

export interface RememberedUser {
  rememberUser: boolean;
  lastUsername: string;
  promptedForSave: boolean;
}

export function rememberedUser(): RememberedUser {
  return {
    rememberUser: localStorage.getItem('rememberUser') === 'true',
    lastUsername: localStorage.getItem('lastUsername') ?? '',
    promptedForSave: localStorage.getItem('promptedForSave') === 'true',
  };
}

/** Ticked: keep the username for next time. Unticked: forget it and the prompt flag. */
export function storeRememberedUser(remember: boolean, username: string): void {
  if (remember) {
    localStorage.setItem('rememberUser', 'true');
    localStorage.setItem('lastUsername', username);
  } else {
    localStorage.removeItem('rememberUser');
    localStorage.removeItem('lastUsername');
    localStorage.removeItem('promptedForSave');
  }
}

export function markPromptedForSave(): void {
  localStorage.setItem('promptedForSave', 'true');
}

/** The user turned notifications off on this device: the start does not subscribe it again. */
export function notificationsTurnedOff(): boolean {
  return localStorage.getItem('notificationsOff') === 'true';
}

/** Kept across sign-outs, as the theme is: turning notifications on again clears it. */
export function storeNotificationsTurnedOff(off: boolean): void {
  if (off) localStorage.setItem('notificationsOff', 'true');
  else localStorage.removeItem('notificationsOff');
}
