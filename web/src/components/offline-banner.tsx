/**
 * Offline status (spec section 8: tracked): a banner under the app bar while the browser reports
 * no network, gone again when it comes back.
 */
import { signal, useSignals } from '../stores/signals';
import { t } from '../i18n';

/** False while the browser is offline. */
export const online = signal(navigator.onLine);
window.addEventListener('online', () => (online.value = true));
window.addEventListener('offline', () => (online.value = false));

/** The banner; renders nothing while online. */
export function OfflineBanner() {
  useSignals();
  if (online.value) return null;
  return (
    <div className="offline-banner" role="status">
      {t('common.offline.banner')}
    </div>
  );
}
