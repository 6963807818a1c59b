/** Users Management: members with roles, invite by e-mail (link shown to copy), change role, resend or revoke an invite, remove. */
import { useEffect, useState, type FormEvent } from 'react';
import { teamApi, type Member } from '../../api/team';
import { Button, FormMessage } from '../../components/form';
import { ConfirmButton } from '../../components/confirm-button';
import { t, tx } from '../../i18n';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { grantableRoles, ROLES, RoleSelect } from './roles';
import { useSignals } from '../../stores/signals';
import { isProjectOwner } from '../../stores/project';
import { user } from '../../stores/session';
import { useLatest } from '../../components/use-latest-answer';

/** A member's status in the current language. */
const statusText = (status: string) =>
  status === 'active' ? t('admin.team.statusActive') : status === 'invited' ? t('admin.team.statusInvited') : status === 'invite expired' ? t('admin.team.statusExpired') : status;

export function UsersManagement(props: { projectId: string }) {
  useSignals();
  // Only owners grant, change or take the owner role, and an owner does not leave their own project:
  // those controls are not offered where the server would refuse them.
  const owner = isProjectOwner.value;
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
      // Mailed: what was sent. Not mailed: why not, or, for someone who already has an account (no link), that they were added.
      setSent(res.mailed ? res.msg : (res.mail_error ?? (res.invite_url ? null : res.msg)));
      setEmail('');
      await load();
    } catch (x) {
      setError((x as Error).message);
    }
  };
  /** Runs a change of a member: `op` names it (while it runs, and when it fails), `done` says it succeeded. */
  const act = (op: string, done: string, run: () => Promise<unknown>) => track(op, run(), done).then(load, () => {});
  /**
   * Sends a pending invite again: the earlier link stops working, so the new one is shown as after an
   * invite (without a mail plugin it is the only way the person can join), or where it was mailed.
   */
  const resend = (m: Member) => {
    setLink(null);
    setSent(null);
    return track(t('admin.team.resendOp', { email: m.email }), teamApi.resend(props.projectId, m.id), t('admin.team.resent', { email: m.email })).then((res) => {
      setLink(res.invite_url ?? null);
      // Not mailed and no link: the answer says where the link went.
      setSent(res.mailed ? res.msg : (res.mail_error ?? (res.invite_url ? null : res.msg)));
      return load();
    }, () => {});
  };

  return (
    <section aria-label={t('admin.team.usersTitle')}>
      <h3>{t('admin.team.usersTitle')}</h3>
      <form className="team-invite" onSubmit={invite} noValidate>
        <input aria-label={t('admin.team.inviteEmail')} placeholder={t('admin.team.inviteEmailPlaceholder')} value={email} onChange={(e) => setEmail(e.target.value)} />
        <RoleSelect label={t('admin.team.inviteRole')} value={role} onChange={setRole} roles={grantableRoles(owner)} />
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
            const ownerRow = m.roles.split(',').includes('owner');
            const known = (ROLES as readonly string[]).includes(current) ? ROLES : [...ROLES, current];
            return (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>
                  <RoleSelect
                    label={t('admin.team.roleOf', { email: m.email })}
                    value={current}
                    roles={ownerRow ? known : grantableRoles(owner, known)}
                    disabled={ownerRow && !owner}
                    onChange={(r) => act(t('admin.team.changeRoleOp', { email: m.email }), t('admin.team.roleChanged', { email: m.email }), () => teamApi.setRoles(props.projectId, m.id, r))}
                  />
                </td>
                <td>{statusText(m.status)}</td>
                <td>
                  <div className="row-actions">
                    {m.status !== 'active' ? <Button variant="ghost" onClick={() => void resend(m)}>{t('admin.team.resend')}</Button> : null}
                    {ownerRow && (!owner || m.id === user.value?.id) ? null : m.status !== 'active' ? (
                      <Button variant="ghost" onClick={() => act(t('admin.team.revokeOp', { email: m.email }), t('admin.team.revoked', { email: m.email }), () => teamApi.revoke(props.projectId, m.id))}>{t('admin.team.revoke')}</Button>
                    ) : m.id === user.value?.id && current === 'owner' ? null /* owners cannot remove themselves (the server refuses) */ : (
                      <ConfirmButton
                        label={t('admin.team.remove')}
                        heading={t('admin.team.removeHeading', { email: m.email })}
                        body={t('admin.team.removeBody')}
                        onConfirm={() => void act(t('admin.team.removeOp', { email: m.email }), t('admin.team.removed', { email: m.email }), () => teamApi.remove(props.projectId, m.id))}
                      />
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
