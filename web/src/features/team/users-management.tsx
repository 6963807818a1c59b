/** Users Management: members with roles, invite by e-mail (link shown to copy), change role, resend or revoke an invite, remove. */
import { useEffect, useState, type FormEvent } from 'react';
import { teamApi, type Member } from '../../api/team';
import { Button, FormMessage } from '../../components/form';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';

const ROLES = ['owner', 'creator', 'editor', 'commenter', 'viewer'];

export function UsersManagement(props: { projectId: string }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('editor');
  const [link, setLink] = useState<string | null>(null);
  /** The server's word when the invite went out by e-mail (the SMTP plugin), or why it could not. */
  const [sent, setSent] = useState<string | null>(null);
  const load = () => teamApi.members(props.projectId).then(setMembers, (e) => setError((e as Error).message));
  useEffect(() => void load(), [props.projectId]);

  const invite = async (e: FormEvent) => {
    e.preventDefault();
    setLink(null);
    setSent(null);
    try {
      const res = await track(`Invite ${email}`, teamApi.invite(props.projectId, email.trim(), role));
      setLink(res.invite_url ?? null);
      setSent(res.mailed ? res.msg : res.mail_error ?? null);
      setEmail('');
      await load();
    } catch (x) {
      setError((x as Error).message);
    }
  };
  const act = (label: string, run: () => Promise<unknown>) => track(label, run()).then(load, () => {});

  return (
    <section aria-label="Users Management">
      <h3>Users Management</h3>
      <form className="team-invite" onSubmit={invite} noValidate>
        <input aria-label="Invite e-mail" placeholder="E-mail to invite" value={email} onChange={(e) => setEmail(e.target.value)} />
        <select aria-label="Invite role" value={role} onChange={(e) => setRole(e.target.value)}>
          {ROLES.map((r) => <option key={r}>{r}</option>)}
        </select>
        <Button type="submit">Invite</Button>
      </form>
      {link ? (
        <div className="invite-link">
          Invite link (valid 24 hours): <code data-testid="invite-link">{link}</code>
          <Button variant="ghost" onClick={() => navigator.clipboard.writeText(link).then(() => toast('success', 'Invite link copied'))}>Copy</Button>
        </div>
      ) : null}
      {sent ? <div className="invite-link" data-testid="invite-sent">{sent}</div> : null}
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>E-mail</th><th>Role</th><th>Status</th><th aria-label="Actions" /></tr></thead>
        <tbody>
          {(members ?? []).map((m) => (
            <tr key={m.id}>
              <td>{m.email}</td>
              <td>
                <select aria-label={`Role of ${m.email}`} value={m.roles.split(',')[0]} onChange={(e) => act(`Role of ${m.email}`, () => teamApi.setRoles(props.projectId, m.id, e.target.value))}>
                  {ROLES.map((r) => <option key={r}>{r}</option>)}
                </select>
              </td>
              <td>{m.status}</td>
              <td>
                <div className="row-actions">
                  {m.status !== 'active' ? <Button variant="ghost" onClick={() => act(`Invite sent again to ${m.email}`, () => teamApi.resend(props.projectId, m.id))}>Resend invite</Button> : null}
                  {m.status !== 'active' ? (
                    <Button variant="ghost" onClick={() => act(`Invite to ${m.email} revoked`, () => teamApi.revoke(props.projectId, m.id))}>Revoke invite</Button>
                  ) : (
                    <Button variant="ghost" onClick={() => act(`Removed ${m.email}`, () => teamApi.remove(props.projectId, m.id))}>Remove</Button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
