import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyTheme, storedTheme } from '../lib/preferences/preferences';

export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useState(storedTheme);
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t(next === 'light' ? 'theme.switchToLight' : 'theme.switchToDark')}
      title={t(next === 'light' ? 'theme.switchToLight' : 'theme.switchToDark')}
      onClick={() => {
        applyTheme(next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
