/**
 * The account settings frame (/user/settings/*): a tab per section beside the section's page.
 * Its sections show the user held in memory and ask the server nothing until something is saved, so
 * each section shown first asks whether the session still holds: one ended meanwhile (signed out in
 * another tab or through the API) goes to sign-in now (the 401 of api/http.ts), as every other page
 * does when it reads, not only at the next periodic check of the session.
 */
import { useEffect } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { authApi } from '../../../api/auth';
import { useLatest } from '../../../components/use-latest-answer';
import { token, user } from '../../../stores/session';
import { t } from '../../../i18n';

const sections = () => [
  { path: 'profile', label: t('admin.settings.profile') },
  { path: 'password', label: t('admin.settings.password') },
  { path: 'picture', label: t('admin.settings.picture') },
  { path: 'accounts', label: t('admin.settings.accounts') },
];

export function SettingsLayout() {
  const { pathname } = useLocation();
  const latest = useLatest();
  useEffect(() => {
    const asked = token.value;
    // An answer without a user (no session any more) signs out here too; an unreachable server does not.
    void latest(authApi.me(), (me) => void (!('roles' in me) && token.value === asked && (user.value = null)));
  }, [pathname]);
  return (
    <div className="page settings-page">
      <div className="page-head">
        <h1>{t('admin.settings.title')}</h1>
      </div>
      <div className="settings-page-body">
        <nav className="settings-nav" aria-label={t('admin.settings.title')}>
          {sections().map((s) => (
            <NavLink key={s.path} to={`/user/settings/${s.path}`} className={({ isActive }) => `settings-tab${isActive ? ' active' : ''}`}>
              {s.label}
            </NavLink>
          ))}
        </nav>
        <section className="settings-section">
          <Outlet />
        </section>
      </div>
    </div>
  );
}
