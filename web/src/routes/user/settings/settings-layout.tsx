/** The account settings frame (/user/settings/*): a tab per section beside the section's page. */
import { NavLink, Outlet } from 'react-router-dom';
import { t } from '../../../i18n';

const sections = () => [
  { path: 'profile', label: t('admin.settings.profile') },
  { path: 'password', label: t('admin.settings.password') },
  { path: 'picture', label: t('admin.settings.picture') },
  { path: 'accounts', label: t('admin.settings.accounts') },
];

export function SettingsLayout() {
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
