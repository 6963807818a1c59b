/** Users Management: members with roles, invite by e-mail (link shown to copy), change role, resend or revoke an invite, remove. */
import { useEffect, useState, type FormEvent } from 'react';
import { teamApi, type Member } from '../../api/team';
import { Button, FormMessage } from '../../components/form';
import { t, tx } from '../../i18n';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { ROLES, RoleSelect } from './roles';
import { useLatest } from '../../components/use-latest-answer';

/** A member's status in the current language. */
const statusText = (status: string) =>
  status === 'active' ? t('admin.team.statusActive') : status === 'invited' ? t('admin.team.statusInvited') : status === 'invite expired' ? t('admin.team.statusExpired') : status;

export function UsersManagement(props: { projectId: string }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('editor');
  const [link, setLink] = useState<string | null>(null);
  /** The server's word when the invite went out by e-mail (the SMTP plugin), or why it could not. */
  const [sent, setSent] = useState<string | null>(null);
  const latest = useLatest();
  const load = () => latest(teamApi.members(props.projectId), setMembers, (e) => setError(e.message));
  useEffect(() => void load(), [props.projectId]);

  const invite = async (e: FormEvent) => {
    e.preventDefault();
    setLink(null);
    setSent(null);
    setError(null);
    try {
      const res = await track(t('admin.team.inviteSent', { email }), teamApi.invite(props.projectId, email.trim(), role));
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
    <section aria-label={t('admin.team.usersTitle')}>
      <h3>{t('admin.team.usersTitle')}</h3>
      <form className="team-invite" onSubmit={invite} noValidate>
        <input aria-label={t('admin.team.inviteEmail')} placeholder={t('admin.team.inviteEmailPlaceholder')} value={email} onChange={(e) => setEmail(e.target.value)} />
        <RoleSelect label={t('admin.team.inviteRole')} value={role} onChange={setRole} />
        <Button type="submit">{t('admin.team.invite')}</Button>
      </form>
      {link ? (
        <div className="invite-link">
          {tx('admin.team.inviteLink', { link: <code data-testid="invite-link">{link}</code> })}
          <Button variant="ghost" onClick={() => navigator.clipboard.writeText(link).then(() => toast('success', t('admin.team.linkCopied')))}>{t('admin.team.copy')}</Button>
        </div>
      ) : null}
      {sent ? <div className="invite-link" data-testid="invite-sent">{sent}</div> : null}
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>{t('admin.team.email')}</th><th>{t('admin.team.role')}</th><th>{t('admin.team.status')}</th><th aria-label={t('admin.common.actions')} /></tr></thead>
        <tbody>
          {(members ?? []).map((m) => {
            const current = m.roles.split(',')[0] ?? 'viewer';
            return (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>
                  <RoleSelect
                    label={t('admin.team.roleOf', { email: m.email })}
                    value={current}
                    roles={(ROLES as readonly string[]).includes(current) ? ROLES : [...ROLES, current]}
                    onChange={(r) => act(t('admin.team.roleChanged', { email: m.email }), () => teamApi.setRoles(props.projectId, m.id, r))}
                  />
                </td>
                <td>{statusText(m.status)}</td>
                <td>
                  <div className="row-actions">
                    {m.status !== 'active' ? <Button variant="ghost" onClick={() => act(t('admin.team.resent', { email: m.email }), () => teamApi.resend(props.projectId, m.id))}>{t('admin.team.resend')}</Button> : null}
                    {m.status !== 'active' ? (
                      <Button variant="ghost" onClick={() => act(t('admin.team.revoked', { email: m.email }), () => teamApi.revoke(props.projectId, m.id))}>{t('admin.team.revoke')}</Button>
                    ) : (
                      <Button variant="ghost" onClick={() => act(t('admin.team.removed', { email: m.email }), () => teamApi.remove(props.projectId, m.id))}>{t('admin.team.remove')}</Button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
