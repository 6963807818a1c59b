/** API Tokens Management: create (shown once), enable/disable, delete. */
import { useEffect, useState, type FormEvent } from 'react';
import { teamApi, type ApiToken } from '../../api/team';
import { Button, FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';

export function TokensManagement(props: { projectId: string }) {
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [role, setRole] = useState('editor');
  const [expiresAt, setExpiresAt] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const load = () => teamApi.tokens(props.projectId).then(setTokens, (e) => setError((e as Error).message));
  useEffect(() => void load(), [props.projectId]);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await track('API token created', teamApi.createToken(props.projectId, description.trim(), role, expiresAt));
      setShown(res.token);
      setDescription('');
      await load();
    } catch (x) {
      setError((x as Error).message);
    }
  };
  return (
    <section aria-label="API Tokens Management">
      <h3>API Tokens Management</h3>
      <form className="team-invite" onSubmit={create} noValidate>
        <input aria-label="Token description" placeholder="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <select aria-label="Token role" value={role} onChange={(e) => setRole(e.target.value)}>
          {['editor', 'commenter', 'viewer', 'creator', 'owner'].map((r) => <option key={r}>{r}</option>)}
        </select>
        <input aria-label="Token expiry" type="date" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
        <Button type="submit">Create token</Button>
      </form>
      {shown ? <div className="invite-link">Copy it now, it is shown only once: <code data-testid="new-token">{shown}</code></div> : null}
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>Description</th><th>Role</th><th>Expires</th><th>State</th><th aria-label="Actions" /></tr></thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.description}</td><td>{t.role}</td><td>{t.expiresAt?.slice(0, 10) ?? 'never'}</td><td>{t.enabled ? 'enabled' : 'disabled'}</td>
              <td><div className="row-actions">
                <Button variant="ghost" onClick={() => track(t.enabled ? 'Token disabled' : 'Token enabled', teamApi.updateToken(props.projectId, t.id, !t.enabled)).then(load, () => {})}>{t.enabled ? 'Disable' : 'Enable'}</Button>
                <Button variant="ghost" onClick={() => track('Token deleted', teamApi.deleteToken(props.projectId, t.id)).then(load, () => {})}>Delete</Button>
              </div></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
