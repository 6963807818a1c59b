/** The account settings frame (/user/settings/*): a tab per section beside the section's page. */
import { NavLink, Outlet } from 'react-router-dom';

const SECTIONS = [
  { path: 'profile', label: 'Profile' },
  { path: 'password', label: 'Password' },
  { path: 'picture', label: 'Picture' },
  { path: 'accounts', label: 'Accounts' },
];

export function SettingsLayout() {
  return (
    <div className="page settings-page">
      <div className="page-head">
        <h1>Account settings</h1>
      </div>
      <div className="settings-body">
        <nav className="settings-nav" aria-label="Account settings">
          {SECTIONS.map((s) => (
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
