import { lazy } from 'react';
import { Outlet } from 'react-router';
import { isAuthenticated } from '../lib/api/session-store';

// The live stream (and its WebSocket library) loads with the first signed-in screen, not with the
// sign-in page.
const RealtimeProvider = lazy(() => import('../lib/realtime/realtime-provider').then((m) => ({ default: m.RealtimeProvider })));

/** The live stream exists only while signed in. */
export function SignedInProviders() {
  if (!isAuthenticated()) return <Outlet />;
  return (
    <RealtimeProvider>
      <Outlet />
    </RealtimeProvider>
  );
}
