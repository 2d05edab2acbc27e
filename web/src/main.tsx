import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { isAuthenticated } from './lib/api/session-store';
import i18n from 'i18next';
import { initI18n } from './lib/i18n/i18n';
import { startConnectivity } from './lib/offline/connectivity';
import { onUpgradeBlocked } from './lib/offline/db';
import { syncFromPage } from './lib/offline/send-message';
import { registerServiceWorker } from './lib/offline/service-worker';
import { applyTheme, storedTheme } from './lib/preferences/preferences';
import './app/styles.css';

applyTheme(storedTheme());
void initI18n();

onUpgradeBlocked(() => window.alert(i18n.t('offline.newVersionCloseTabs')));
void registerServiceWorker();
// Every online check sends what waits in the outbox (the spec syncs when the connection returns;
// checking each time also picks up retries and messages queued by another tab).
startConnectivity((online) => {
  if (online && isAuthenticated()) void syncFromPage();
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
