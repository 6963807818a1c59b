/**
 * Version & Updates: the latest release the server's feed names, a Check now button, and whether the
 * banner announces new versions (kept in this browser). Double-clicking the row shows Application refresh.
 */
import { useEffect, useState } from 'react';
import { Button } from '../../components/form';
import { signal, useSignals } from '../../stores/signals';
import { checkForUpdates, loadUpdateStatus, updateStatus } from './update-status';
import { versionApi } from '../../api/version';
import { isSuperAdmin } from '../../stores/session';

const NOTIFY_KEY = 'tablo.updateNotify';
/** Announce new versions with the banner (on unless turned off here). */
export const notifyUpdates = signal(localStorage.getItem(NOTIFY_KEY) !== 'off');

export function UpdatesSection(props: { onDoubleClick: () => void }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [installed, setInstalled] = useState<string | null>(null);
  const install = async () => {
    setBusy(true);
    setError(null);
    try {
      setInstalled((await versionApi.install()).msg);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void loadUpdateStatus(), []);
  const s = updateStatus.value;
  const check = async () => {
    setBusy(true);
    setError(null);
    try {
      await checkForUpdates();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="updates-section">
      <label className="check" onDoubleClick={props.onDoubleClick}>
        <input
          type="checkbox"
          checked={notifyUpdates.value}
          disabled={!s?.feed}
          onChange={(e) => {
            notifyUpdates.value = e.target.checked;
            localStorage.setItem(NOTIFY_KEY, e.target.checked ? 'on' : 'off');
          }}
        />{' '}
        Tell me when a new version is available
      </label>
      {!s ? null : !s.feed ? (
        <p className="muted">Update checks are off: the server has no release feed (set NC_UPDATE_FEED).</p>
      ) : (
        <>
          <p data-testid="latest-release">
            {s.error ? s.error : s.latest ? (s.newer ? `Tablo ${s.latest.version} is available.` : `You run the latest version (${s.latest.version}).`) : 'Not checked yet.'}
            {s.newer && s.latest?.url ? <> <a href={s.latest.url} target="_blank" rel="noreferrer">Download</a></> : null}
          </p>
          {s.newer && s.latest?.notes ? <p className="muted">{s.latest.notes}</p> : null}
          {s.newer && s.latest?.sha256 ? <p className="muted">SHA-256: <code>{s.latest.sha256}</code></p> : null}
          <p className="muted">
            {s.install === 'docker' ? 'Tablo runs in Docker: pull the new image to update.' : s.install === 'source' ? 'Tablo runs from source here: update the checkout.' : 'Install puts the new binary in place of this one (the old one is kept as .old); it runs from the next start.'}
          </p>
          <div className="dialog-actions">
            <Button variant="secondary" disabled={busy} onClick={() => void check()}>{busy ? 'Working…' : 'Check now'}</Button>
            {s.newer && s.install === 'binary' && isSuperAdmin.value && !installed ? <Button disabled={busy} onClick={() => void install()}>Install {s.latest?.version}</Button> : null}
          </div>
          {installed ? <p className="form-message form-message-success" role="status">{installed}</p> : null}
          {error ? <p className="form-message form-message-error">{error}</p> : null}
        </>
      )}
    </div>
  );
}
