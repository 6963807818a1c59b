/**
 * Version & Updates: the latest release the server's feed names, Check now, whether the banner announces
 * new versions (kept in this browser), and the Super Admin's auto-update switch (kept by the server:
 * the single binary installs a newer release by itself, for the next restart; Docker only announces it).
 * Double-clicking the first switch's row shows Application refresh.
 */
import { useEffect, useState } from 'react';
import { Switch } from 'react-aria-components';
import { Button } from '../../components/form';
import { formatDateTime, formatRelative, t } from '../../i18n';
import { signal, useSignals } from '../../stores/signals';
import { isSuperAdmin } from '../../stores/session';
import { toast } from '../../stores/toasts';
import type { UpdateStatus } from '../../api/version';
import { checkForUpdates, installUpdate, loadUpdateStatus, setAutoUpdate, updateStatus, updateText } from './update-status';

const NOTIFY_KEY = 'tablo.updateNotify';
/** Announce new versions with the banner (on unless turned off here). */
export const notifyUpdates = signal(localStorage.getItem(NOTIFY_KEY) !== 'off');

/** How this server takes in a release, in a sentence. */
const modeText = (s: UpdateStatus) =>
  s.install === 'docker' ? t('updates.mode.docker') : s.install === 'source' ? t('updates.mode.source') : s.install === 'notice' ? t('updates.mode.notice') : t('updates.mode.binary');

function ToggleSwitch(props: { isSelected: boolean; isDisabled?: boolean; onChange: (on: boolean) => void; children: string; testId?: string }) {
  return (
    <Switch className="aria-switch" isSelected={props.isSelected} isDisabled={props.isDisabled} onChange={props.onChange} data-testid={props.testId}>
      <span className="aria-switch-track" aria-hidden>
        <span className="aria-switch-thumb" />
      </span>
      {props.children}
    </Switch>
  );
}

export function UpdatesSection(props: { onDoubleClick: () => void }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  useEffect(() => void loadUpdateStatus(), []);
  const s = updateStatus.value;
  const run = (fn: () => Promise<unknown>) => async () => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      // Check now failed: the server's words, in the reader's language when known.
      toast('error', updateText((e as Error).message), 6000);
    } finally {
      setBusy(false);
    }
  };
  const latest = s?.latest;
  const waiting = s?.installed ?? null;
  return (
    <div className="updates-section">
      <div className="updates-row" onDoubleClick={props.onDoubleClick}>
        <ToggleSwitch
          isSelected={notifyUpdates.value}
          isDisabled={!s?.feed}
          onChange={(on) => {
            notifyUpdates.value = on;
            localStorage.setItem(NOTIFY_KEY, on ? 'on' : 'off');
          }}
        >
          {t('updates.notify')}
        </ToggleSwitch>
      </div>
      {!s ? null : !s.feed ? (
        <p className="muted">{t('updates.feedOff')}</p>
      ) : (
        <>
          <p data-testid="latest-release">
            {s.error ? updateText(s.error) : latest ? (s.newer ? t('updates.available', { version: latest.version }) : t('updates.latest', { version: latest.version })) : t('updates.notChecked')}
            {s.newer && latest?.url ? <> <a href={latest.url} target="_blank" rel="noreferrer">{t('updates.download')}</a></> : null}
          </p>
          {s.checkedAt ? (
            <p className="muted">
              <time dateTime={s.checkedAt} title={formatDateTime(s.checkedAt)}>{t('updates.checkedAt', { when: formatRelative(s.checkedAt) })}</time>
            </p>
          ) : null}
          {s.newer && latest?.notes ? <p className="muted">{latest.notes}</p> : null}
          {s.newer && latest?.sha256 ? <p className="muted">{t('updates.sha256')} <code>{latest.sha256}</code></p> : null}
          <p className="muted">{modeText(s)}</p>
          {isSuperAdmin.value ? (
            <div className="updates-row">
              <ToggleSwitch isSelected={s.autoUpdate} isDisabled={busy || (s.install !== 'binary' && !s.autoUpdate)} onChange={(on) => void run(() => setAutoUpdate(on))()} testId="auto-update">
                {t('updates.auto.label')}
              </ToggleSwitch>
              <p className="muted">{s.install === 'binary' ? t('updates.auto.help') : t('updates.auto.noticeOnly')}</p>
            </div>
          ) : null}
          <div className="dialog-actions">
            <Button variant="secondary" disabled={busy} onClick={() => void run(checkForUpdates)()}>{busy ? t('updates.working') : t('updates.checkNow')}</Button>
            {s.newer && latest && s.install === 'binary' && isSuperAdmin.value && waiting !== latest.version ? (
              <Button disabled={busy || s.installing} onClick={() => void run(installUpdate)()}>{t('updates.install', { version: latest.version })}</Button>
            ) : null}
          </div>
          {s.installing && latest ? <p className="muted" role="status">{t('updates.installing', { version: latest.version })}</p> : null}
          {waiting ? <p className="form-message form-message-success" role="status">{t('updates.installed', { version: waiting })}</p> : null}
          {s.installError && !s.installing ? <p className="form-message form-message-error">{updateText(s.installError)}</p> : null}
        </>
      )}
    </div>
  );
}
