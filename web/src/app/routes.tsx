/** The route table of spec section 2 (hash routing), in one place, with layouts and guards. */
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { TopBar } from '../components/top-bar';
import { ToastHost } from '../components/overlays';
import { SettingsDialog } from '../features/settings/settings-dialog';
import { BottomWindows } from '../features/settings/bottom-windows';
import { installShortcuts } from '../actions/registry';
import { useEffect } from 'react';
import { isSignedIn, projectInfo } from '../stores/session';
import { useSignals } from '../stores/signals';
import { SigninPage } from '../routes/user/signin-page';
import { SignupPage } from '../routes/user/signup-page';
import { ChangePasswordPage, ForgotPage, ResetFormPage, ResetInvalidPage, ResetSuccessPage } from '../routes/user/password-pages';
import { ProjectsPage } from '../routes/projects/projects-page';
import { ProjectPage } from '../routes/project/project-page';
import { UsersAdminPage } from '../routes/user/admin-page';
import { OAuthCallbackPage } from '../routes/user/oauth-callback-page';
import { SettingsLayout } from '../routes/user/settings/settings-layout';
import { ProfileSettings } from '../routes/user/settings/profile-settings';
import { PictureSettings } from '../routes/user/settings/picture-settings';
import { AccountsSettings } from '../routes/user/settings/accounts-settings';
import { ErrorPage } from '../routes/error/error-pages';
import { ScreenErrorBoundary } from './error-boundary';
import { OfflineBanner } from '../components/offline-banner';
import { UpdateBanner } from '../features/settings/update-banner';
import { TerminalModal } from '../features/terminal/terminal-modal';
import { SharedLinkIncompletePage, SharedViewPage } from '../features/shared/shared-page';
import { ProjectFormRoute } from '../routes/projects/project-form-route';
import { StartPage } from '../routes/start-page';
import { FaqPage, HiringPage, ReferralPage, TermsPage } from '../routes/info/info-pages';
import { ApiClientPage } from '../routes/tools/api-client-page';
import { ThemesPage } from '../routes/tools/themes-page';
import { DatatablePage } from '../routes/tools/datatable-page';

/** Default layout: top bar, the page below it (guarded against render errors), toasts and dialogs. */
function DefaultLayout() {
  useEffect(() => installShortcuts(), []);
  return (
    <div className="layout">
      <TopBar />
      <OfflineBanner />
      <UpdateBanner />
      <main className="content">
        <ScreenErrorBoundary>
          <Outlet />
        </ScreenErrorBoundary>
      </main>
      <ToastHost />
      <SettingsDialog />
      <BottomWindows />
      <TerminalModal />
    </div>
  );
}

/** Only for signed-in users; others go to sign-in, which brings them back here. */
function RequireUser() {
  useSignals();
  const location = useLocation();
  if (isSignedIn.value) return <Outlet />;
  // Sign-in comes back here afterwards (see `returnTo`).
  return <Navigate to="/user/authentication/signin" replace state={{ from: location.pathname + location.search }} />;
}

/**
 * `/`: the projects list when signed in; signed out, sign-in, except on first load (no user
 * yet), where the sign-up that makes the Super Admin opens instead.
 */
function Index() {
  useSignals();
  const firstLoad = projectInfo.value?.authType === 'jwt' && projectInfo.value.firstUser;
  const to = isSignedIn.value ? '/projects' : firstLoad ? '/user/authentication/signup' : '/user/authentication/signin';
  return <Navigate to={to} replace />;
}

/** Every route of the app, under the default layout; unmatched paths show the 404 page. */
export function AppRoutes() {
  return (
    <Routes>
      {/* A shared view's public page: no sign-in, no dashboard around it (#/shared/ is the address links had before). */}
      <Route path="nc/view/:uuid" element={<SharedViewPage />} />
      <Route path="nc/view" element={<SharedLinkIncompletePage />} />
      <Route path="shared/:uuid" element={<SharedViewPage />} />
      <Route element={<DefaultLayout />}>
        <Route index element={<Index />} />
        <Route path="user/authentication" element={<Navigate to="/user/authentication/signin" replace />} />
        <Route path="user/authentication/signin" element={<SigninPage />} />
        <Route path="user/authentication/signup" element={<SignupPage />} />
        <Route path="user/authentication/signup/:token" element={<SignupPage />} />
        <Route path="user/authentication/callback" element={<OAuthCallbackPage />} />
        <Route path="user/password" element={<Navigate to="/user/password/forgot" replace />} />
        <Route path="user/password/forgot" element={<ForgotPage />} />
        <Route path="user/password/reset" element={<ResetFormPage />} />
        <Route path="user/password/reset/form" element={<ResetFormPage />} />
        <Route path="user/password/reset/invalid" element={<ResetInvalidPage />} />
        <Route path="user/password/reset/success" element={<ResetSuccessPage />} />
        <Route path="start" element={<StartPage />} />
        <Route path="info/faq" element={<FaqPage />} />
        <Route path="info/tos" element={<TermsPage />} />
        <Route path="info/hiring" element={<HiringPage />} />
        <Route path="referral" element={<ReferralPage />} />
        <Route element={<RequireUser />}>
          <Route path="projects" element={<ProjectsPage />} />
          <Route path="nc" element={<Navigate to="/projects" replace />} />
          <Route path="nc/:projectId" element={<ProjectPage />} />
          {/* /project/xcdb, /project/name, /project/index.js, /project/0 and /project/{id}: route-targets.ts decides. */}
          <Route path="project" element={<ProjectFormRoute />} />
          <Route path="project/:id" element={<ProjectFormRoute />}>
            <Route index element={null} />
          </Route>
          <Route path="user/admin" element={<UsersAdminPage />} />
          <Route path="user/admin/user-edit" element={<UsersAdminPage editing="pick" />} />
          <Route path="user/admin/user" element={<UsersAdminPage editing="pick" />} />
          <Route path="user/admin/user/:userId" element={<UsersAdminPage />} />
          <Route path="apiClient" element={<ApiClientPage />} />
          <Route path="inspire" element={<ThemesPage />} />
          <Route path="datatable" element={<DatatablePage />} />
          <Route path="user" element={<Navigate to="/user/settings/profile" replace />} />
          <Route path="user/settings" element={<SettingsLayout />}>
            <Route index element={<Navigate to="/user/settings/profile" replace />} />
            <Route path="profile" element={<ProfileSettings />} />
            <Route path="password" element={<ChangePasswordPage />} />
            <Route path="picture" element={<PictureSettings />} />
            <Route path="accounts" element={<AccountsSettings />} />
          </Route>
        </Route>
        <Route path="error/400" element={<ErrorPage status={400} />} />
        <Route path="error/403" element={<ErrorPage status={403} />} />
        <Route path="error/404" element={<ErrorPage status={404} />} />
        <Route path="*" element={<ErrorPage status={404} />} />
      </Route>
    </Routes>
  );
}
