/**
 * "Sign in with …" buttons for the providers the server is configured for (GET /auth/type
 * `providers`); nothing when there are none. Each is a plain link: the browser leaves for the
 * provider through GET /auth/{provider}.
 */
import { projectInfo } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { appUrl } from '../../api/app-url';

export function ProviderButtons() {
  useSignals();
  const providers = projectInfo.value?.providers ?? [];
  if (!providers.length) return null;
  return (
    <div className="provider-buttons" aria-label={t('admin.oauth.providersLabel')}>
      <div className="provider-divider"><span>{t('admin.oauth.or')}</span></div>
      {providers.map((p) => (
        <a key={p.id} className={`btn btn-secondary provider-btn provider-${p.id}`} href={appUrl(`/auth/${encodeURIComponent(p.id)}`)}>
          {t('admin.oauth.signInWith', { provider: p.name })}
        </a>
      ))}
    </div>
  );
}
