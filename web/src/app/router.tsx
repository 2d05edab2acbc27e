import { Route, Routes } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { RegisterPage } from '../features/auth/components/register-page';
import { UnauthorizedPage } from '../features/auth/components/unauthorized-page';
import { lazyScreen } from './lazy-screen';
import { ProtectedRoute } from './protected-route';
import { RouteEffects } from './route-effects';
import { SignedInProviders } from './signed-in-providers';

const CHAT_ROLES = ['admin', 'agent'];
const OWNER_ROLES = ['admin'];

// The signed-in screens load as their own chunks, so the sign-in page starts smaller.
const InboxPage = lazyScreen(() => import('../features/inbox/components/inbox-page').then((m) => m.InboxPage));
const EditProfilePage = lazyScreen(() =>
  import('../features/profile/components/edit-profile-page').then((m) => m.EditProfilePage),
);
const AutomatedRepliesPage = lazyScreen(() =>
  import('../features/replies/components/automated-replies-page').then((m) => m.AutomatedRepliesPage),
);
const CannedRepliesPage = lazyScreen(() =>
  import('../features/canned/components/canned-replies-page').then((m) => m.CannedRepliesPage),
);
const SenderPage = lazyScreen(() => import('../features/sender/components/sender-page').then((m) => m.SenderPage));
const TemplatePage = lazyScreen(() => import('../features/templates/components/template-page').then((m) => m.TemplatePage));
const ReportsPage = lazyScreen(() => import('../features/reports/components/reports-page').then((m) => m.ReportsPage));
const TestPage = lazyScreen(() => import('../features/test-view/components/test-page').then((m) => m.TestPage));

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
