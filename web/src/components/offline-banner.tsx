/**
 * Offline status (spec section 8: tracked): a banner under the app bar while the browser reports
 * no network, or while the server or its metadata store cannot be reached (stores/server-status.ts),
 * gone again when it comes back. The session is kept meanwhile.
 */
import { signal, useSignals } from '../stores/signals';
import { serverReachable } from '../stores/server-status';
import { t } from '../i18n';

/** False while the browser is offline. */
export const online = signal(navigator.onLine);
window.addEventListener('online', () => (online.value = true));
window.addEventListener('offline', () => (online.value = false));

/** The banner; renders nothing while online and the server answers. */
export function OfflineBanner() {
  useSignals();
  if (online.value && serverReachable.value) return null;
  return (
    <div className="offline-banner" role="status">
      {t(online.value ? 'common.offline.server' : 'common.offline.banner')}
    </div>
  );
}
