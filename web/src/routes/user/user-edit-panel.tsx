/**
 * The edit panel of one user on the Super Admin's Users page (/user/admin/user/{userId}): the
 * same edits as the list (Super Admin role, May create projects, disable or enable), for a user
 * reached by link. An unknown user shows the 404 page in its place.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { http, HttpError } from '../../api/http';
import { Button, FormMessage } from '../../components/form';
import { ToggleSwitch } from '../../features/hooks/toggle-switch';
import { t } from '../../i18n';
import { track } from '../../stores/notifications';
import { user as me } from '../../stores/session';
import { ErrorPage } from '../error/error-pages';
import type { AdminUser, AdminUserEdit } from './admin-page';

/** The state of an account in words. */
const stateText = (u: AdminUser) => (u.disabled ? t('admin.users.stateDisabled') : u.joined ? t('admin.users.stateActive') : t('admin.users.stateInvited'));

export function UserEditPanel(props: { userId: string; onChanged: () => void }) {
  const navigate = useNavigate();
  const [u, setU] = useState<AdminUser | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    http<AdminUser>(`/admin/users/${encodeURIComponent(props.userId)}`).then(
      (found) => live && setU(found),
      (e) => live && ((e as HttpError).status === 404 ? setMissing(true) : setError((e as Error).message)),
    );
    return () => {
      live = false;
    };
  }, [props.userId]);
  if (missing) return <ErrorPage status={404} />;
  const self = !!u && u.id === me.value?.id;
  const edit = (body: AdminUserEdit, [op, done]: [string, string]) =>
    track(op, http<AdminUser>(`/admin/users/${encodeURIComponent(props.userId)}`, { method: 'PUT', body }), done).then(
      (changed) => (setU((old) => (old ? { ...old, ...changed } : old)), setError(null), props.onChanged()),
      (e) => setError((e as Error).message),
    );
  const isSuper = !!u?.roles.includes('super');
  return (
    <section className="connect-form user-edit" aria-label={u ? t('admin.userEdit.heading', { email: u.email }) : t('admin.userEdit.loading')}>
      {u ? (
        <>
          <h2>{t('admin.userEdit.heading', { email: u.email })}</h2>
          <p className="muted">
            {u.name ? `${u.name} · ` : ''}
            {t('admin.userEdit.state', { state: stateText(u) })}
          </p>
          <ToggleSwitch isSelected={isSuper} isDisabled={self} onChange={(on) => void edit({ roles: on ? ['user', 'super'] : ['user'] }, [t('admin.users.changeRolesOp', { email: u.email }), t('admin.users.rolesChanged', { email: u.email })])}>
            {t('admin.users.superAdmin')}
          </ToggleSwitch>
          <ToggleSwitch
            isSelected={u.mayCreateProjects}
            isDisabled={isSuper}
            title={isSuper ? t('admin.users.superAlwaysMay') : t('admin.users.mayCreateHint')}
            onChange={(on) => void edit({ mayCreateProjects: on }, on ? [t('admin.users.mayCreateOnOp', { email: u.email }), t('admin.users.mayCreateOn', { email: u.email })] : [t('admin.users.mayCreateOffOp', { email: u.email }), t('admin.users.mayCreateOff', { email: u.email })])}
          >
            {t('admin.users.mayCreate')}
          </ToggleSwitch>
          {self ? <p className="muted">{t('admin.userEdit.self')}</p> : null}
        </>
      ) : (
        <p className="muted">{t('admin.userEdit.loading')}</p>
      )}
      <FormMessage kind="error" text={error} />
      <div className="inline-actions">
        <Button variant="secondary" onClick={() => navigate('/user/admin')}>{t('admin.userEdit.close')}</Button>
        {u && !self ? (
          <Button variant={u.disabled ? 'primary' : 'danger'} onClick={() => void edit({ disabled: !u.disabled }, u.disabled ? [t('admin.users.enableOp', { email: u.email }), t('admin.users.enabled', { email: u.email })] : [t('admin.users.disableOp', { email: u.email }), t('admin.users.disabled', { email: u.email })])}>
            {u.disabled ? t('admin.users.enable') : t('admin.users.disable')}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
