/**
 * 'New version is available' under the top bar, with a link to the release and a close button; once the
 * server has installed the release for the next start, the banner says a restart runs it.
 */
import { useEffect } from 'react';
import { X } from 'lucide-react';
import { t } from '../../i18n';
import { useSignals } from '../../stores/signals';
import { notifyUpdates } from './updates-section';
import { dismissedVersion, dismissUpdate, loadUpdateStatus, updateStatus } from './update-status';

export function UpdateBanner() {
  useSignals();
  useEffect(() => void loadUpdateStatus(), []);
  const s = updateStatus.value;
  if (!notifyUpdates.value || !s?.newer || !s.latest) return null;
  const latest = s.latest;
  const installed = s.installed === latest.version;
  // Closing hides the banner for this release; its 'installed' form comes back once.
  const key = installed ? `${latest.version}+installed` : latest.version;
  if (dismissedVersion.value === key) return null;
  return (
    <div className="update-banner" role="status">
      {installed ? t('updates.banner.installed', { version: latest.version }) : t('updates.banner.available', { latest: latest.version, current: s.version })}
      {latest.url && !installed ? <> <a href={latest.url} target="_blank" rel="noreferrer">{t('updates.download')}</a></> : null}
      <button className="chip-x" aria-label={t('updates.close')} onClick={() => dismissUpdate(key)}><X size={14} aria-hidden /></button>
    </div>
  );
}
