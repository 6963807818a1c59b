/**
 * Super Admin user management (/user/admin): list and search users, edit global roles, let a user
 * create projects and connect databases ("May create projects"), disable; the audit log in a second tab.
 * /user/admin/user/{userId} opens the page on that user's edit panel (/user/admin/user-edit and
 * /user/admin/user without an id: the list, asking to pick someone). Only for the Super Admin.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { http } from '../../api/http';
import { Button, FormMessage } from '../../components/form';
import { useLatestAnswer } from '../../components/use-latest-answer';
import { ToggleSwitch } from '../../features/hooks/toggle-switch';
import { t } from '../../i18n';
import { track } from '../../stores/notifications';
import { AuditLogPanel } from './audit-log-panel';
import { UserEditPanel } from './user-edit-panel';
import { ErrorPage } from '../error/error-pages';
import { isSuperAdmin, user as me } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import './admin-page.css';

/** A user as the Users page shows them (GET /admin/users). */
export interface AdminUser { id: string; email: string; name: string | null; roles: string[]; disabled: boolean; joined: boolean; mayCreateProjects: boolean }

/** The changes the Users page makes to a user (PUT /admin/users/{id}). */
export type AdminUserEdit = { roles?: string[]; disabled?: boolean; mayCreateProjects?: boolean };

/**
 * /user/admin and its edit addresses: `editing` is the user id of /user/admin/user/{userId}, or
 * 'pick' for /user/admin/user-edit and /user/admin/user without one.
 */
export function UsersAdminPage(props: { editing?: 'pick' } = {}) {
  useSignals();
  const { userId } = useParams();
  const [tab, setTab] = useState<'users' | 'audit'>('users');
  // Reloads the list after an edit made in the panel.
  const [generation, setGeneration] = useState(0);
  if (!isSuperAdmin.value) return <ErrorPage status={403} />;
  const editing = userId ?? props.editing;
  return (
    <div className="page">
      <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as 'users' | 'audit')}>
        <TabList className="page-tabs" aria-label={t('admin.users.administration')}>
          <Tab id="users" className="page-tab">{t('admin.users.tabUsers')}</Tab>
          <Tab id="audit" className="page-tab">{t('admin.users.tabAudit')}</Tab>
        </TabList>
        <TabPanel id="users" className="page-tab-panel">
          {editing === 'pick' ? <p className="form-message form-message-success" role="status">{t('admin.userEdit.pick')}</p> : null}
          {editing && editing !== 'pick' ? <UserEditPanel key={editing} userId={editing} onChanged={() => setGeneration((g) => g + 1)} /> : null}
          <UsersList generation={generation} />
        </TabPanel>
        <TabPanel id="audit" className="page-tab-panel">
          <AuditLogPanel />
        </TabPanel>
      </Tabs>
    </div>
  );
}

/** The state of an account in the list. */
const stateText = (u: AdminUser) => (u.disabled ? t('admin.users.stateDisabled') : u.joined ? t('admin.users.stateActive') : t('admin.users.stateInvited'));

/** The users table with its search; `generation` moves on when the edit panel changed someone. */
function UsersList(props: { generation: number }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => http<{ list: AdminUser[] }>('/admin/users', { query: { search } }).then((r) => setUsers(r.list), (e) => setError((e as Error).message));
  useLatestAnswer(() => http<{ list: AdminUser[] }>('/admin/users', { query: { search } }), (r) => setUsers(r.list), (e) => setError(e.message), [search, props.generation]);
  const edit = (u: AdminUser, body: AdminUserEdit, [op, done]: [string, string]) =>
    track(op, http(`/admin/users/${u.id}`, { method: 'PUT', body }), done).then(load, () => {});
  return (
    <>
      <div className="page-head">
        <h1>{t('admin.users.title')}</h1>
        <input className="search" aria-label={t('admin.users.search')} placeholder={t('admin.users.searchPlaceholder')} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead>
          <tr>
            <th>{t('admin.users.email')}</th>
            <th>{t('admin.users.name')}</th>
            <th>{t('admin.users.superAdmin')}</th>
            <th title={t('admin.users.mayCreateHint')}>{t('admin.users.mayCreate')}</th>
            <th>{t('admin.users.state')}</th>
            <th aria-label={t('admin.common.actions')} />
          </tr>
        </thead>
        <tbody>
          {(users ?? []).map((u) => (
            <tr key={u.id}>
              <td>{u.email}</td>
              <td>{u.name ?? ''}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('admin.users.superAdminOf', { email: u.email })}
                  checked={u.roles.includes('super')}
                  disabled={u.id === me.value?.id}
                  onChange={(e) => edit(u, { roles: e.target.checked ? ['user', 'super'] : ['user'] }, [t('admin.users.changeRolesOp', { email: u.email }), t('admin.users.rolesChanged', { email: u.email })])}
                />
              </td>
              <td>
                <ToggleSwitch
                  aria-label={t('admin.users.mayCreateOf', { email: u.email })}
                  title={u.roles.includes('super') ? t('admin.users.superAlwaysMay') : t('admin.users.mayCreateHint')}
                  isSelected={u.mayCreateProjects}
                  isDisabled={u.roles.includes('super')}
                  onChange={(on) => edit(u, { mayCreateProjects: on }, on ? [t('admin.users.mayCreateOnOp', { email: u.email }), t('admin.users.mayCreateOn', { email: u.email })] : [t('admin.users.mayCreateOffOp', { email: u.email }), t('admin.users.mayCreateOff', { email: u.email })])}
                />
              </td>
              <td>{stateText(u)}</td>
              <td>
                <div className="row-actions">
                  <Button variant="ghost" title={t('admin.userEdit.editOf', { email: u.email })} onClick={() => navigate(`/user/admin/user/${encodeURIComponent(u.id)}`)}>{t('admin.userEdit.edit')}</Button>
                  {/* The Super Admin neither disables nor demotes themselves (the server refuses it), as in the edit panel. */}
                  {u.id === me.value?.id ? null : <Button variant="ghost" onClick={() => edit(u, { disabled: !u.disabled }, u.disabled ? [t('admin.users.enableOp', { email: u.email }), t('admin.users.enabled', { email: u.email })] : [t('admin.users.disableOp', { email: u.email }), t('admin.users.disabled', { email: u.email })])}>
                    {u.disabled ? t('admin.users.enable') : t('admin.users.disable')}
                  </Button>}
                </div>
              </td>
            </tr>
          ))}
          {users && !users.length && search.trim() ? <tr><td colSpan={6} className="muted">{t('admin.users.noMatch', { search: search.trim() })}</td></tr> : null}
        </tbody>
      </table>
    </>
  );
}
