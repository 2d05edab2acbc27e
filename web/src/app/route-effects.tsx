import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { LOGOUT_EVENT, saveSession } from '../lib/api/session-store';
import { OPEN_CONVERSATION_EVENT } from '../lib/offline/service-worker';

const CHAT_PATH = '/whatsapp';

/**
 * Route-level behaviours of the spec: the social-login return (tokens in the query), the
 * conversation_id deep link (also what a clicked notification opens), and the global logout event.
 */
export function RouteEffects() {
  const location = useLocation();
  const navigate = useNavigate();
  const query = new URLSearchParams(location.search);
  const accessToken = query.get('accessToken');
  const refreshToken = query.get('refreshToken');
  const conversationId = query.get('conversation_id');

  useEffect(() => {
    const logout = () => navigate('/login', { replace: true });
    window.addEventListener(LOGOUT_EVENT, logout);
    return () => window.removeEventListener(LOGOUT_EVENT, logout);
  }, [navigate]);

  useEffect(() => {
    const open = (event: Event) => {
      const id = (event as CustomEvent<string>).detail;
      navigate(`${CHAT_PATH}?conversation_id=${encodeURIComponent(id)}`);
    };
    window.addEventListener(OPEN_CONVERSATION_EVENT, open);
    return () => window.removeEventListener(OPEN_CONVERSATION_EVENT, open);
  }, [navigate]);

  useEffect(() => {
    // In the native app, deep links and notification taps open their conversation the same way.
    const open = (id: string) => window.dispatchEvent(new CustomEvent(OPEN_CONVERSATION_EVENT, { detail: id }));
    let stop: (() => void) | undefined;
    let live = true;
    void import('../lib/native/native-session')
      .then(({ listenForNativeOpens }) => listenForNativeOpens(open))
      .then((stopListening) => {
        if (live) stop = stopListening;
        else stopListening();
      });
    return () => {
      live = false;
      stop?.();
    };
  }, []);

  useEffect(() => {
    if (!accessToken || !refreshToken) return;
    try {
      saveSession({ accessToken, refreshToken, role: query.get('role') });
    } catch {
      navigate('/login', { replace: true });
      return;
    }
    const path = location.pathname === '/login' || location.pathname === '/register' ? CHAT_PATH : location.pathname;
    navigate(path, { replace: true });
    // The query is read once per change of the search string.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [accessToken, refreshToken]);

  if (accessToken && refreshToken) return null;
  if (conversationId && location.pathname !== CHAT_PATH) {
    return <Navigate to={`${CHAT_PATH}?conversation_id=${encodeURIComponent(conversationId)}`} replace />;
  }
  return <Outlet />;
}
