import { lazy } from 'react';
import { Route, Routes } from 'react-router';
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

/** Every screen of the app; the sign-in pages, the signed-in shell, then role-checked screens. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RouteEffects />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/unauthorized" element={<UnauthorizedPage />} />
        <Route element={<SignedInProviders />}>
          <Route element={<ProtectedRoute roles={CHAT_ROLES} />}>
            <Route path="/" element={<InboxPage />} />
            <Route path="/whatsapp" element={<InboxPage />} />
            <Route path="/template" element={<TemplatePage />} />
            <Route path="/sender" element={<SenderPage />} />
            <Route path="/automated-replies" element={<AutomatedRepliesPage />} />
            <Route path="/canned-replies" element={<CannedRepliesPage />} />
          </Route>
          <Route element={<ProtectedRoute roles={OWNER_ROLES} />}>
            <Route path="/reports" element={<ReportsPage />} />
          </Route>
          <Route element={<ProtectedRoute />}>
            <Route path="/test" element={<TestPage />} />
            <Route path="/edit-profile" element={<EditProfilePage />} />
            <Route path="*" element={<InboxPage />} />
          </Route>
        </Route>
      </Route>
    </Routes>
  );
}
