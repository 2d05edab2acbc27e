import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { RegisterPage } from '../features/auth/components/register-page';
import { UnauthorizedPage } from '../features/auth/components/unauthorized-page';
import { ProtectedRoute } from './protected-route';
import { RouteEffects } from './route-effects';
import { SignedInProviders } from './signed-in-providers';

const CHAT_ROLES = ['admin', 'agent'];
const OWNER_ROLES = ['admin'];

// The signed-in screens load as their own chunks, so the sign-in page starts smaller.
const InboxPage = lazy(() => import('../features/inbox/components/inbox-page').then((m) => ({ default: m.InboxPage })));
const EditProfilePage = lazy(() =>
  import('../features/profile/components/edit-profile-page').then((m) => ({ default: m.EditProfilePage })),
);
const AutomatedRepliesPage = lazy(() =>
  import('../features/replies/components/automated-replies-page').then((m) => ({ default: m.AutomatedRepliesPage })),
);
const CannedRepliesPage = lazy(() =>
  import('../features/canned/components/canned-replies-page').then((m) => ({ default: m.CannedRepliesPage })),
);
const SenderPage = lazy(() => import('../features/sender/components/sender-page').then((m) => ({ default: m.SenderPage })));
const TemplatePage = lazy(() => import('../features/templates/components/template-page').then((m) => ({ default: m.TemplatePage })));
const ReportsPage = lazy(() => import('../features/reports/components/reports-page').then((m) => ({ default: m.ReportsPage })));
const TestPage = lazy(() => import('../features/test-view/components/test-page').then((m) => ({ default: m.TestPage })));

export function createRouter() {
  return createBrowserRouter([
    {
      element: <RouteEffects />,
      children: [
        { path: '/login', element: <LoginPage /> },
        { path: '/register', element: <RegisterPage /> },
        { path: '/unauthorized', element: <UnauthorizedPage /> },
        {
          element: <SignedInProviders />,
          children: [
            {
              element: <ProtectedRoute roles={CHAT_ROLES} />,
              children: [
                { path: '/', element: <InboxPage /> },
                { path: '/whatsapp', element: <InboxPage /> },
                { path: '/template', element: <TemplatePage /> },
                { path: '/sender', element: <SenderPage /> },
                { path: '/automated-replies', element: <AutomatedRepliesPage /> },
                { path: '/canned-replies', element: <CannedRepliesPage /> },
              ],
            },
            {
              element: <ProtectedRoute roles={OWNER_ROLES} />,
              children: [{ path: '/reports', element: <ReportsPage /> }],
            },
            {
              element: <ProtectedRoute />,
              children: [
                { path: '/test', element: <TestPage /> },
                { path: '/edit-profile', element: <EditProfilePage /> },
                { path: '*', element: <InboxPage /> },
              ],
            },
          ],
        },
      ],
    },
  ]);
}
