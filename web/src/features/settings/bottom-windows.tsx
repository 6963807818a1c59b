/** The output window (operations and their results, key o) and the log window (API calls, key l). */
import { outputOpen, logOpen } from '../../actions/registry';
import { httpLog } from '../../stores/http-log';
import { notifications, relativeTime } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';

export function BottomWindows() {
  useSignals();
  if (!outputOpen.value && !logOpen.value) return null;
  return (
    <div className="bottom-windows">
      {outputOpen.value ? (
        <section className="bottom-window" aria-label="Output">
          <header>Output <button className="chip-x" aria-label="Close output" onClick={() => (outputOpen.value = false)}>×</button></header>
          {notifications.value.length === 0 ? <p className="muted">No operations yet</p> : null}
          {notifications.value.map((n) => (
            <div key={n.id} className={`note note-${n.status}`}>
              <strong>{n.title}</strong> <span className="muted">{n.status} · {relativeTime(n.time)}</span> {n.detail ?? ''}
            </div>
          ))}
        </section>
      ) : null}
      {logOpen.value ? (
        <section className="bottom-window" aria-label="Log">
          <header>Log <button className="chip-x" aria-label="Close log" onClick={() => (logOpen.value = false)}>×</button></header>
          {httpLog.value.map((e, i) => (
            <div key={i} className="log-line">
              <span className="muted">{new Date(e.at).toLocaleTimeString()}</span> {e.method} {e.path} <strong className={e.status >= 400 ? 'bad' : ''}>{e.status}</strong> <span className="muted">{e.ms} ms</span>
            </div>
          ))}
        </section>
      ) : null}
    </div>
  );
}
