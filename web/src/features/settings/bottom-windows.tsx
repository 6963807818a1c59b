/** The output window (operations and their results, key o) and the log window (API calls, key l). */
import { outputOpen, logOpen } from '../../actions/registry';
import { httpLog } from '../../stores/http-log';
import { notifications } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';
import { formatTime, t } from '../../i18n';
import { sinceText, statusText } from './notification-bell';

export function BottomWindows() {
  useSignals();
  if (!outputOpen.value && !logOpen.value) return null;
  return (
    <div className="bottom-windows">
      {outputOpen.value ? (
        <section className="bottom-window" aria-label={t('common.windows.output')}>
          <header>{t('common.windows.output')} <button className="chip-x" aria-label={t('common.windows.closeOutput')} onClick={() => (outputOpen.value = false)}>×</button></header>
          {notifications.value.length === 0 ? <p className="muted">{t('common.windows.noOperations')}</p> : null}
          {notifications.value.map((n) => (
            <div key={n.id} className={`note note-${n.status}`}>
              <strong>{n.title}</strong> <span className="muted">{statusText(n.status)} · {sinceText(n.time)}</span> {n.detail ?? ''}
            </div>
          ))}
        </section>
      ) : null}
      {logOpen.value ? (
        <section className="bottom-window" aria-label={t('common.windows.log')}>
          <header>{t('common.windows.log')} <button className="chip-x" aria-label={t('common.windows.closeLog')} onClick={() => (logOpen.value = false)}>×</button></header>
          {httpLog.value.map((e, i) => (
            <div key={i} className="log-line">
              <span className="muted">{formatTime(e.at, { timeStyle: 'medium' })}</span> {e.method} {e.path} <strong className={e.status >= 400 ? 'bad' : ''}>{e.status}</strong> <span className="muted">{t('common.windows.ms', { ms: e.ms })}</span>
            </div>
          ))}
        </section>
      ) : null}
    </div>
  );
}
