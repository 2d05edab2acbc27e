// A screen loaded as its own chunk. After a new version is deployed, a page still running the old
// one asks for chunks that no longer exist; offline, a chunk the browser never kept cannot come.
// Either way React.lazy would throw and leave a blank page. Instead the page reloads once (the new
// index.html names the new chunks), and if the chunk still cannot come, the screen says why.
import { lazy, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

/** When the page last reloaded for a missing chunk; a second failure soon after shows the message. */
export const RELOADED_AT_KEY = 'parley:reloadedForChunk';
const RELOAD_GUARD_MS = 30_000;

/** Whether a failed chunk should reload the page: online, and not just reloaded for one. */
export function shouldReloadForChunk(online: boolean, reloadedAt: string | null, now: number): boolean {
  if (!online) return false;
  const last = Number(reloadedAt);
  return !(Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS);
}

/** React.lazy for a route's screen (or a provider) that never throws a failed chunk at React. */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async (): Promise<{ default: ComponentType<P> }> => {
    try {
      return { default: await load() };
    } catch (error) {
      console.warn('screen did not load', error);
      if (shouldReloadForChunk(navigator.onLine, sessionStorage.getItem(RELOADED_AT_KEY), Date.now())) {
        sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
        window.location.reload();
        // The reload replaces the page; until then the loading text stays.
        return new Promise<never>(() => undefined);
      }
      return { default: ScreenUnavailable };
    }
  });
}

/** The screen's code could not be fetched: offline it needs the network, online a reload. */
export function ScreenUnavailable() {
  const { t } = useTranslation();
  const offline = !navigator.onLine;
  return (
    <div className="centered" role="alert">
      <p>{t(offline ? 'offline.screenNeedsNetwork' : 'offline.screenNotLoaded')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('offline.reloadApp')}
      </button>
    </div>
  );
}
