import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './lib/i18n/i18n';
import { applyTheme, storedTheme } from './lib/preferences/preferences';
import './app/styles.css';

applyTheme(storedTheme());
void initI18n();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
