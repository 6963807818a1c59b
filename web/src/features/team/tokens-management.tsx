/** API Tokens Management: create (shown once), enable/disable, delete. */
import { useEffect, useState, type FormEvent } from 'react';
import { teamApi, type ApiToken } from '../../api/team';
import { Button, FormMessage } from '../../components/form';
import { ConfirmButton } from '../../components/confirm-button';
import { formatDate, t, tx } from '../../i18n';
import { track } from '../../stores/notifications';
import { grantableRoles, RoleSelect, roleName } from './roles';
import { useSignals } from '../../stores/signals';
import { isProjectOwner } from '../../stores/project';
import { toast } from '../../stores/toasts';
import { ExpiryPicker, expiryInstant } from './expiry-picker';
import { useLatest } from '../../components/use-latest-answer';

const TOKEN_ROLES = ['editor', 'commenter', 'viewer', 'creator', 'owner'] as const;

export function TokensManagement(props: { projectId: string }) {
  useSignals();
  // null until the first list has come: "no tokens yet" is said only once that is known.
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [role, setRole] = useState('editor');
  const [expiresAt, setExpiresAt] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const latest = useLatest();
  const load = () => latest(teamApi.tokens(props.projectId), setTokens, (e) => setError(e.message));
  useEffect(() => void load(), [props.projectId]);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const res = await track(t('admin.tokens.create'), teamApi.createToken(props.projectId, description.trim(), role, expiryInstant(expiresAt)), t('admin.tokens.created'));
      setShown(res.token);
      setDescription('');
      await load();
    } catch (x) {
      setError((x as Error).message);
    }
  };
  return (
    <section aria-label={t('admin.tokens.title')}>
      <h3>{t('admin.tokens.title')}</h3>
      <form className="team-invite" onSubmit={create} noValidate>
        <input aria-label={t('admin.tokens.descriptionLabel')} placeholder={t('admin.tokens.description')} value={description} onChange={(e) => setDescription(e.target.value)} />
        <RoleSelect label={t('admin.tokens.role')} value={role} onChange={setRole} roles={grantableRoles(isProjectOwner.value, TOKEN_ROLES)} />
        <ExpiryPicker label={t('admin.tokens.expiry')} value={expiresAt} onChange={setExpiresAt} />
        <Button type="submit">{t('admin.tokens.create')}</Button>
      </form>
      {shown ? (
        <div className="invite-link">
          {tx('admin.tokens.shownOnce', { token: <code data-testid="new-token">{shown}</code> })}
          <Button variant="ghost" onClick={() => navigator.clipboard.writeText(shown).then(() => toast('success', t('admin.tokens.copied')), (e: Error) => toast('error', t('admin.tokens.copyFailed', { error: e.message })))}>{t('admin.team.copy')}</Button>
        </div>
      ) : null}
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>{t('admin.tokens.description')}</th><th>{t('admin.team.role')}</th><th>{t('admin.tokens.expires')}</th><th>{t('admin.tokens.state')}</th><th aria-label={t('admin.common.actions')} /></tr></thead>
        <tbody>
          {tokens?.length === 0 ? <tr><td colSpan={5} className="muted">{t('admin.tokens.none')}</td></tr> : null}
          {(tokens ?? []).map((tk) => (
            <tr key={tk.id}>
              <td>{tk.description}</td>
              <td>{roleName(tk.role)}</td>
              <td>{tk.expiresAt ? formatDate(tk.expiresAt) : t('admin.tokens.never')}</td>
              <td>{tk.enabled ? t('admin.tokens.enabled') : t('admin.tokens.disabled')}</td>
              <td><div className="row-actions">
                {/* An owner token is changed by owners only (the server refuses a creator). */}
                {tk.role === 'owner' && !isProjectOwner.value ? null : (<>
                <Button variant="ghost" onClick={() => track(tk.enabled ? t('admin.tokens.disableOp') : t('admin.tokens.enableOp'), teamApi.updateToken(props.projectId, tk.id, !tk.enabled), tk.enabled ? t('admin.tokens.disabledToast') : t('admin.tokens.enabledToast')).then(load, () => {})}>{tk.enabled ? t('admin.tokens.disable') : t('admin.tokens.enable')}</Button>
                <ConfirmButton
                  label={t('admin.tokens.delete')}
                  heading={t('admin.tokens.deleteHeading', { description: tk.description })}
                  body={t('admin.tokens.deleteBody')}
                  onConfirm={() => void track(t('admin.tokens.deleteOp'), teamApi.deleteToken(props.projectId, tk.id), t('admin.tokens.deleted')).then(load, () => {})}
                />
                </>)}
              </div></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
