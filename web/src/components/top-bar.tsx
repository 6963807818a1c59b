/** The app bar (height 40): product name, profile menu (email, Copy auth token, Sign Out) or Sign Up / Login. */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isSignedIn, masterKey, token, user } from '../stores/session';
import { useSignals } from '../stores/signals';
import { toast } from '../stores/toasts';
import { signOut } from '../app/session-actions';
import { projectInfo } from '../stores/session';
import { canShare, currentProject } from '../stores/project';
import { darkTheme } from '../stores/settings';
import { command, panelOpener } from '../actions/registry';
import { NotificationBell } from '../features/settings/notification-bell';
import { projectMetaApi } from '../api/project-meta';
import { http } from '../api/http';
import { BrandMark } from '../features/app-store/brand';
import { LanguageMenu } from './language-menu';

/** The 40 px app bar; signed in it carries the theme toggles, the bell and the profile menu. */
export function TopBar() {
  useSignals();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // With authentication off there is no token to copy and no session to end.
  const authOff = projectInfo.value?.authType === 'none';
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (menuRef.current && !menuRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', onKey);
    };
  }, []);

  const copyToken = async () => {
    setOpen(false);
    try {
      await navigator.clipboard.writeText(token.value ?? masterKey.value ?? '');
      toast('success', 'Auth token copied to clipboard');
    } catch (e) {
      toast('error', `Copy failed: ${(e as Error).message}`);
    }
  };

  const copyProjectInfo = async () => {
    setOpen(false);
    try {
      // The project as JSON: its id, title, API type, environments with their connections (never a password) and API endpoints.
      const p = currentProject.value!;
      const [apis, envs] = await Promise.all([http(`/nc/${p.id}/projectApiInfo`), projectMetaApi.envs(p.id)]);
      await navigator.clipboard.writeText(JSON.stringify({ id: p.id, title: p.title, projectType: p.projectType, ...envs, apiInfo: apis }, null, 2));
      toast('success', 'Project info copied to clipboard');
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };

  return (
    <header className="top-bar">
      <div className="top-bar-left">
        <Link to={isSignedIn.value ? '/projects' : '/'} className="brand">
          <BrandMark />
        </Link>
        {currentProject.value ? <span className="top-project">{currentProject.value.title}</span> : null}
        {projectInfo.value ? <span className="version-label">v{projectInfo.value.version}</span> : null}
      </div>
      <div className="top-bar-right">
        {currentProject.value && canShare.value ? (
          <button className="icon-btn top-crons" title="Cron Jobs" onClick={() => panelOpener.value?.('crons')}>Crons</button>
        ) : null}
        {currentProject.value && canShare.value ? (
          <button className="share-btn" onClick={() => panelOpener.value?.('roles')}>Share</button>
        ) : null}
        <button className="icon-btn" aria-label="Toggle dark mode" title="Toggle dark mode (ctrl+shift+b)" onClick={command('toggleDarkMode').run}>
          {darkTheme.value ? '☀' : '☾'}
        </button>
        <button className="icon-btn" aria-label="Next theme" title="Next theme" onClick={command('nextTheme').run}>◐</button>
        <LanguageMenu />
        {isSignedIn.value ? <NotificationBell /> : null}
        {isSignedIn.value ? (
          <div className="menu" ref={menuRef}>
            <button className="avatar" aria-haspopup="menu" aria-expanded={open} aria-label="Profile menu" onClick={() => setOpen(!open)}>
              {user.value?.picture ? <img className="avatar-img" src={user.value.picture} alt="" /> : (user.value?.email ?? 'A').charAt(0).toUpperCase()}
            </button>
            {open ? (
              <div className="menu-list" role="menu">
                {user.value?.email ? (
                  <Link className="menu-item menu-email" role="menuitem" to="/user/settings/password" title="Account settings" onClick={() => setOpen(false)}>
                    {user.value.email}
                  </Link>
                ) : (
                  <div className="menu-item menu-email" role="menuitem" aria-disabled="true">
                    {projectInfo.value?.authType === 'none' ? 'Authentication is off' : 'Master key'}
                  </div>
                )}
                {authOff ? null : (
                  <button className="menu-item" role="menuitem" onClick={copyToken}>
                    Copy auth token
                  </button>
                )}
                {currentProject.value ? (
                  <>
                    {currentProject.value.projectType === 'graphql' ? (
                      <a className="menu-item" role="menuitem" href={`/nc/${currentProject.value.id}/v1/graphql`} target="_blank" rel="noreferrer">GraphQL APIs</a>
                    ) : (
                      <a className="menu-item" role="menuitem" href={`/nc/${currentProject.value.id}/docs`} target="_blank" rel="noreferrer">Swagger APIs Doc</a>
                    )}
                    <button className="menu-item" role="menuitem" onClick={copyProjectInfo}>Copy Project info</button>
                  </>
                ) : null}
                {user.value?.roles.super ? (
                  <Link className="menu-item" role="menuitem" to="/user/admin" onClick={() => setOpen(false)}>
                    Users
                  </Link>
                ) : null}
                <button className="menu-item" role="menuitem" onClick={() => { setOpen(false); command('openSettings').run(); }}>
                  Themes
                </button>
                {authOff ? null : (
                  <button
                    className="menu-item"
                    role="menuitem"
                    onClick={async () => {
                      setOpen(false);
                      // Leave first: a navigation after the awaits could undo one the visitor made meanwhile.
                      navigate('/user/authentication/signin');
                      await signOut();
                    }}
                  >
                    Sign Out
                  </button>
                )}
              </div>
            ) : null}
          </div>
        ) : (
          <>
            {projectInfo.value?.authType === 'masterKey' ? null : (
              <Link className="btn btn-ghost" to="/user/authentication/signup">
                Sign Up
              </Link>
            )}
            <Link className="btn btn-primary" to="/user/authentication/signin">
              Login
            </Link>
          </>
        )}
      </div>
    </header>
  );
}
