/**
 * Beside the SQL editors: the project's saved queries (open one in a new editor, delete it) and
 * the user's history of runs, newest first (put one back into the editor, clear the history).
 */
import { useEffect, useState } from 'react';
import { sqlClientApi, type HistoryEntry, type SavedQuery } from '../../api/sql-client';
import { toast } from '../../stores/toasts';
import { relativeTime } from '../../stores/notifications';

const STATUS_LABEL: Record<HistoryEntry['status'], string> = { ok: '✓', error: '✗', cancelled: '●', timeout: '●' };

export function SqlSidebar(props: { scope: { projectId: string; dbAlias: string }; version: number; onOpen(q: SavedQuery): void; onUse(sql: string): void }) {
  const [saved, setSaved] = useState<SavedQuery[]>([]);
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  useEffect(() => {
    sqlClientApi.queries(props.scope).then(setSaved, (e) => toast('error', (e as Error).message));
    sqlClientApi.history(props.scope).then(setHistory, (e) => toast('error', (e as Error).message));
  }, [props.scope, props.version]);

  const remove = async (q: SavedQuery) => {
    try {
      await sqlClientApi.deleteQuery(props.scope, q.id);
      setSaved((list) => list.filter((x) => x.id !== q.id));
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  const clear = async () => {
    await sqlClientApi.clearHistory(props.scope).then(() => setHistory([]), (e) => toast('error', (e as Error).message));
  };

  return (
    <aside className="sqlc-side">
      <section aria-label="Saved queries">
        <h3>Saved queries</h3>
        {!saved.length ? <p className="muted">None yet: Save keeps the editor's SQL under its name.</p> : null}
        <ul className="sqlc-list">
          {saved.map((q) => (
            <li key={q.id}>
              <button className="sqlc-item" title={q.sql} onClick={() => props.onOpen(q)}>{q.name}</button>
              <button className="icon-btn" aria-label={`Delete saved query ${q.name}`} onClick={() => void remove(q)}>×</button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="History">
        <h3>
          History
          {history.length ? <button className="link-btn" onClick={() => void clear()}>Clear</button> : null}
        </h3>
        {!history.length ? <p className="muted">Your runs appear here, newest first.</p> : null}
        <ul className="sqlc-list">
          {history.map((h) => (
            <li key={h.id}>
              <button className="sqlc-item sqlc-history" title={`${h.sql}\n\n${h.status}, ${h.durationMs} ms — click to put it in the editor`} onClick={() => props.onUse(h.sql)}>
                <span className={`sqlc-status sqlc-status-${h.status}`} aria-label={h.status}>{STATUS_LABEL[h.status]}</span>
                <span className="sqlc-history-sql">{h.sql.replace(/\s+/g, ' ').slice(0, 80)}</span>
                <span className="muted sqlc-history-time">{relativeTime(Date.parse(h.ranAt))}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
