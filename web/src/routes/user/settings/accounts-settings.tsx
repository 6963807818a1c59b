/**
 * /user/settings/accounts: providers linked to this account, a Link button for each configured one
 * not linked yet (the browser goes to the provider and comes back to the callback page), and
 * Unlink, which the server allows only while another way to sign in remains.
 */
import { useEffect, useState } from 'react';
import { authApi, type LinkedAccount } from '../../../api/auth';
import { Button, FormMessage } from '../../../components/form';
import type { SigninProvider } from '../../../stores/session';
import { toast } from '../../../stores/toasts';
import { t } from '../../../i18n';
import { useLatest } from '../../../components/use-latest-answer';

export function AccountsSettings() {
  const [data, setData] = useState<{ hasPassword: boolean; providers: SigninProvider[]; list: LinkedAccount[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useLatest();
  const load = () => latest(authApi.accounts(), setData, (e) => setError(e.message));
  useEffect(() => void load(), []);
  const link = async (provider: string) => {
    try {
      window.location.assign((await authApi.linkAccount(provider)).url);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const unlink = async (provider: string) => {
    try {
      toast('success', (await authApi.unlinkAccount(provider)).msg);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (!data) return <FormMessage kind="error" text={error} />;
  const linked = new Set(data.list.map((a) => a.provider));
  return (
    <div className="settings-form">
      <h2>{t('admin.settings.accounts')}</h2>
      <p className="muted">{data.hasPassword ? t('admin.settings.accountsWithPassword') : t('admin.settings.accountsWithoutPassword')}</p>
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>{t('admin.settings.provider')}</th><th>{t('admin.settings.account')}</th><th aria-label={t('admin.common.actions')} /></tr></thead>
        <tbody>
          {data.list.map((a) => (
            <tr key={a.provider}>
              <td>{a.name}</td>
              <td>{a.email ?? ''}</td>
              <td><Button variant="ghost" onClick={() => void unlink(a.provider)}>{t('admin.settings.unlink', { provider: a.name })}</Button></td>
            </tr>
          ))}
          {data.providers.filter((p) => !linked.has(p.id)).map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td className="muted">{t('admin.settings.notLinked')}</td>
              <td><Button variant="ghost" onClick={() => void link(p.id)}>{t('admin.settings.link', { provider: p.name })}</Button></td>
            </tr>
          ))}
          {data.list.length === 0 && data.providers.length === 0 ? (
            <tr><td colSpan={3} className="muted">{t('admin.settings.noProviders')}</td></tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
