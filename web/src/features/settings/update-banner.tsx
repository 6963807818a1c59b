/** 'New version is available' under the top bar, with a link to the release and a close button. */
import { useEffect } from 'react';
import { X } from 'lucide-react';
import { useSignals } from '../../stores/signals';
import { notifyUpdates } from './updates-section';
import { dismissedVersion, dismissUpdate, loadUpdateStatus, updateStatus } from './update-status';

export function UpdateBanner() {
  useSignals();
  useEffect(() => void loadUpdateStatus(), []);
  const s = updateStatus.value;
  if (!notifyUpdates.value || !s?.newer || !s.latest || dismissedVersion.value === s.latest.version) return null;
  const latest = s.latest;
  return (
    <div className="update-banner" role="status">
      New version is available: Tablo {latest.version} (you run {s.version}).
      {latest.url ? <> <a href={latest.url} target="_blank" rel="noreferrer">Download</a></> : null}
      <button className="chip-x" aria-label="Close" onClick={() => dismissUpdate(latest.version)}><X size={14} aria-hidden /></button>
    </div>
  );
}
