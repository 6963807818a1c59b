/**
 * Super Admin user management (/user/admin): list and search users, edit global roles, let a user
 * create projects and connect databases ("May create projects"), disable; the audit log in a second tab.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { http } from '../../api/http';
import { Button, FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { AuditLogPanel } from './audit-log-panel';

interface AdminUser { id: string; email: string; name: string | null; roles: string[]; disabled: boolean; joined: boolean; mayCreateProjects: boolean }

export function UsersAdminPage() {
  const [tab, setTab] = useState<'users' | 'audit'>('users');
  const tabs = (
    <div className="page-tabs" role="tablist" aria-label="Administration">
      <button role="tab" aria-selected={tab === 'users'} className={`page-tab${tab === 'users' ? ' active' : ''}`} onClick={() => setTab('users')}>Users</button>
      <button role="tab" aria-selected={tab === 'audit'} className={`page-tab${tab === 'audit' ? ' active' : ''}`} onClick={() => setTab('audit')}>Audit log</button>
    </div>
  );
  if (tab === 'audit') {
    return (
      <div className="page">
        {tabs}
        <AuditLogPanel />
      </div>
    );
  }
  return <UsersList tabs={tabs} />;
}

/** The users table with its search. */
function UsersList(props: { tabs: ReactNode }) {
  const [search, setSearch] = useState('');
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => http<{ list: AdminUser[] }>('/admin/users', { query: { search } }).then((r) => setUsers(r.list), (e) => setError((e as Error).message));
  useEffect(() => {
    const t = setTimeout(() => void load(), 200);
    return () => clearTimeout(t);
  }, [search]);
  const edit = (u: AdminUser, body: { roles?: string[]; disabled?: boolean; mayCreateProjects?: boolean }, label: string) =>
    track(label, http(`/admin/users/${u.id}`, { method: 'PUT', body })).then(load, () => {});
  return (
    <div className="page">
      {props.tabs}
      <div className="page-head">
        <h1>Users</h1>
        <input className="search" aria-label="Search users" placeholder="Search by e-mail or name" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>E-mail</th><th>Name</th><th>Super Admin</th><th title="Create projects, test connections and add databases">May create projects</th><th>State</th><th aria-label="Actions" /></tr></thead>
        <tbody>
          {(users ?? []).map((u) => (
            <tr key={u.id}>
              <td>{u.email}</td>
              <td>{u.name ?? ''}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Super Admin: ${u.email}`}
                  checked={u.roles.includes('super')}
                  onChange={(e) => edit(u, { roles: e.target.checked ? ['user', 'super'] : ['user'] }, `Roles of ${u.email} changed`)}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`May create projects: ${u.email}`}
                  title={u.roles.includes('super') ? 'The Super Admin always may' : 'Create projects, test connections and add databases'}
                  checked={u.mayCreateProjects}
                  disabled={u.roles.includes('super')}
                  onChange={(e) => edit(u, { mayCreateProjects: e.target.checked }, `${u.email} ${e.target.checked ? 'may' : 'may not'} create projects`)}
                />
              </td>
              <td>{u.disabled ? 'disabled' : u.joined ? 'active' : 'invited'}</td>
              <td>
                <div className="row-actions">
                  <Button variant="ghost" onClick={() => edit(u, { disabled: !u.disabled }, `${u.email} ${u.disabled ? 'enabled' : 'disabled'}`)}>{u.disabled ? 'Enable' : 'Disable'}</Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
