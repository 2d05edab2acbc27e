import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '../../../components/language-toggle';
import { ThemeToggle } from '../../../components/theme-toggle';

/** The frame of the login and register pages: toggles, a card, and the legal links. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="auth">
      <div className="auth-toolbar">
        <ThemeToggle />
        <LanguageToggle />
      </div>
      <section className="auth-card">
        <h1>{title}</h1>
        {children}
        <footer className="legal">
          <a href="/privacy.html">{t('auth.privacy')}</a>
          <a href="/terms_en.html">{t('auth.terms')}</a>
        </footer>
      </section>
    </main>
  );
}
