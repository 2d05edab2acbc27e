// Renders components with English translations loaded synchronously and a toast recorder.
import { render } from '@testing-library/react';
import i18n from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '../../public/locales/en/translation.json';
import { ToastContext, type ShowToast } from '../lib/toast/toast-context';

/** The tests' i18next instance, for a test that changes the language while a screen is mounted. */
export const testI18n = i18n.createInstance();
void testI18n.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Renders `element` inside the app's providers; `rerender` keeps them, so only `element` updates. */
export function renderWithApp(element: ReactElement, showToast: ShowToast = () => undefined) {
  return render(element, {
    wrapper: ({ children }) => (
      <I18nextProvider i18n={testI18n}>
        <ToastContext.Provider value={showToast}>{children}</ToastContext.Provider>
      </I18nextProvider>
    ),
  });
}
