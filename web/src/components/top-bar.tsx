/** The app bar (height 40): product name, profile menu (email, Copy auth token, Sign Out) or Sign Up / Login. */
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, type Key } from 'react-aria-components';
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
import { WithTooltip } from './tooltip';
import { t } from '../i18n';
import { rightClickCounter } from '../app/route-targets';
import { appUrl, serverLink } from '../api/app-url';
import { ProfilePicture } from './profile-picture';

const SIGN_IN = '/user/authentication/signin';

/**
 * The 40 px app bar; signed in it carries the theme toggles, the bell and the profile menu (with
 * About Tablo: the info pages). Three right-clicks on it open /datatable.
 */
export function TopBar() {
  useSignals();
  const navigate = useNavigate();
  const location = useLocation();
  // Sign Out leaves for the sign-in page first, and ends the session once that page shows: ended
  // earlier, the guard of the page being left would record it as the place to come back to.
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (!leaving || location.pathname !== SIGN_IN) return;
    setLeaving(false);
    void signOut();
  }, [leaving, location.pathname]);
  // Three right-clicks on the bar open the hidden /datatable page (spec section 2); a link keeps its own menu.
  const rightClicks = useRef(rightClickCounter());
  const onContextMenu = (e: MouseEvent) => {
    if ((e.target as Element).closest('a, input, button')) return;
    e.preventDefault();
    if (rightClicks.current.click(e.timeStamp)) navigate('/datatable');
  };
  // With authentication off there is no token to copy and no session to end.
  const authOff = projectInfo.value?.authType === 'none';

  const copyToken = async () => {
    try {
      await navigator.clipboard.writeText(token.value ?? masterKey.value ?? '');
      toast('success', t('common.topBar.tokenCopied'));
    } catch (e) {
      toast('error', t('common.topBar.copyFailed', { error: (e as Error).message }));
    }
  };

  const copyProjectInfo = async () => {
    try {
      // The project as JSON: its id, title, API type, environments with their connections (never a password) and API endpoints.
      const p = currentProject.value!;
      const [apis, envs] = await Promise.all([http(`/nc/${p.id}/projectApiInfo`), projectMetaApi.envs(p.id)]);
      await navigator.clipboard.writeText(JSON.stringify({ id: p.id, title: p.title, projectType: p.projectType, ...envs, apiInfo: apis }, null, 2));
      toast('success', t('common.topBar.projectInfoCopied'));
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };

  const project = currentProject.value;
  const onAction = (key: Key) => {
    if (key === 'token') void copyToken();
    else if (key === 'projectInfo') void copyProjectInfo();
    else if (key === 'graphql') panelOpener.value?.('graphqlClient');
    else if (key === 'themes') command('openSettings').run();
    else if (key === 'signOut') {
      // Leave first: a navigation after the awaits could undo one the visitor made meanwhile.
      setLeaving(true);
      navigate(SIGN_IN);
    }
  };

  return (
    <header className="top-bar" onContextMenu={onContextMenu}>
      <div className="top-bar-left">
        <Link to={isSignedIn.value ? '/projects' : '/'} className="brand">
          <BrandMark />
        </Link>
        {project ? <span className="top-project">{project.title}</span> : null}
        {projectInfo.value ? <span className="version-label">{t('common.topBar.version', { version: projectInfo.value.version })}</span> : null}
      </div>
      <div className="top-bar-right">
        {project && canShare.value ? (
          <WithTooltip tip={t('common.topBar.cronJobs')}>
            <AriaButton className="icon-btn top-crons" onPress={() => panelOpener.value?.('crons')}>{t('common.topBar.crons')}</AriaButton>
          </WithTooltip>
        ) : null}
        {project && canShare.value ? (
          <button className="share-btn" onClick={() => panelOpener.value?.('roles')}>{t('common.topBar.share')}</button>
        ) : null}
        <WithTooltip tip={t('common.topBar.toggleDarkTip')}>
          <AriaButton className="icon-btn" aria-label={t('common.topBar.toggleDark')} onPress={() => command('toggleDarkMode').run()}>
            <span aria-hidden>{darkTheme.value ? '☀' : '☾'}</span>
          </AriaButton>
        </WithTooltip>
        <WithTooltip tip={t('common.topBar.nextTheme')}>
          <AriaButton className="icon-btn" aria-label={t('common.topBar.nextTheme')} onPress={() => command('nextTheme').run()}>
            <span aria-hidden>◐</span>
          </AriaButton>
        </WithTooltip>
        <LanguageMenu />
        {isSignedIn.value ? <NotificationBell /> : null}
        {isSignedIn.value ? (
          <MenuTrigger>
            <WithTooltip tip={t('common.topBar.profileMenu')}>
              <AriaButton className="avatar" aria-label={t('common.topBar.profileMenu')}>
                <ProfilePicture className="avatar-img" src={user.value?.picture ? serverLink(user.value.picture) : null} initial={(user.value?.email ?? 'A').charAt(0).toUpperCase()} />
              </AriaButton>
            </WithTooltip>
            <Popover placement="bottom end" className="aria-popover">
              <Menu className="menu-list aria-menu profile-menu" aria-label={t('common.topBar.profileMenu')} onAction={onAction} disabledKeys={['who']}>
                {user.value?.email ? (
                  <MenuItem id="email" className="menu-item menu-email" href="#/user/settings/password" textValue={user.value.email}>
                    {user.value.email}
                  </MenuItem>
                ) : (
                  <MenuItem id="who" className="menu-item menu-email">
                    {authOff ? t('common.topBar.authOff') : t('common.topBar.masterKey')}
                  </MenuItem>
                )}
                {authOff ? null : (
                  <MenuItem id="token" className="menu-item">
                    {t('common.topBar.copyToken')}
                  </MenuItem>
                )}
                {project ? (
                  project.projectType === 'graphql' ? (
                    // The endpoint itself, opened in a new tab, carries no session: the GraphQL Client tab does.
                    <MenuItem id="graphql" className="menu-item">{t('common.topBar.graphqlApis')}</MenuItem>
                  ) : (
                    <MenuItem id="swagger" className="menu-item" href={appUrl(`/nc/${project.id}/docs`)} target="_blank" rel="noreferrer">{t('common.topBar.swaggerDoc')}</MenuItem>
                  )
                ) : null}
                {project ? <MenuItem id="projectInfo" className="menu-item">{t('common.topBar.copyProjectInfo')}</MenuItem> : null}
                {user.value?.roles.super ? (
                  <MenuItem id="users" className="menu-item" href="#/user/admin">
                    {t('common.topBar.users')}
                  </MenuItem>
                ) : null}
                <MenuItem id="themes" className="menu-item">
                  {t('common.topBar.themes')}
                </MenuItem>
                <MenuItem id="about" className="menu-item" href="#/info/faq">
                  {t('pages.info.nav')}
                </MenuItem>
                {authOff ? null : (
                  <MenuItem id="signOut" className="menu-item">
                    {t('common.topBar.signOut')}
                  </MenuItem>
                )}
              </Menu>
            </Popover>
          </MenuTrigger>
        ) : (
          <>
            {projectInfo.value?.authType === 'masterKey' ? null : (
              <Link className="btn btn-ghost" to="/user/authentication/signup">
                {t('common.topBar.signUp')}
              </Link>
            )}
            <Link className="btn btn-primary" to="/user/authentication/signin">
              {t('common.topBar.login')}
            </Link>
          </>
        )}
      </div>
    </header>
  );
}
