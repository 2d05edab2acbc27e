import { Outlet } from 'react-router';
import { isAuthenticated } from '../lib/api/session-store';
import { RealtimeProvider } from '../lib/realtime/realtime-provider';

/** The live stream exists only while signed in. */
export function SignedInProviders() {
  if (!isAuthenticated()) return <Outlet />;
  return (
    <RealtimeProvider>
      <Outlet />
    </RealtimeProvider>
  );
}
