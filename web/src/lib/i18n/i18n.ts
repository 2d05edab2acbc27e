// i18next with translations fetched from /locales/{lng}/translation.json. The interface starts in
// the stored language, else English (the login area's default); Arabic is the fallback language.
import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { storedLanguage, storeLanguage, type Language } from '../preferences/preferences';

export const FALLBACK_LANGUAGE: Language = 'ar';

function applyDirection(language: string): void {
  document.documentElement.lang = language;
  document.documentElement.dir = i18n.dir(language);
}

export function initI18n(): Promise<unknown> {
  i18n.on('languageChanged', applyDirection);
  return i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng: storedLanguage() ?? 'en',
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: ['en', 'ar'],
      backend: { loadPath: '/locales/{{lng}}/translation.json' },
      interpolation: { escapeValue: false },
    });
}

export function currentLanguage(): Language {
  return i18n.resolvedLanguage === 'ar' ? 'ar' : 'en';
}

export async function setLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  await i18n.changeLanguage(language);
}
