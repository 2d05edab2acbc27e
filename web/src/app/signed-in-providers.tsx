import { Outlet } from 'react-router';
import { isAuthenticated } from '../lib/api/session-store';
import { lazyScreen } from './lazy-screen';

// The live stream (and its WebSocket library) loads with the first signed-in screen, not with the
// sign-in page.
const RealtimeProvider = lazyScreen(() => import('../lib/realtime/realtime-provider').then((m) => m.RealtimeProvider));

/** The live stream exists only while signed in. */
export function SignedInProviders() {
  if (!isAuthenticated()) return <Outlet />;
  return (
    <RealtimeProvider>
      <Outlet />
    </RealtimeProvider>
  );
}
