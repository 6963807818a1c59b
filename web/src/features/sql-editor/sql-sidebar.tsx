/**
 * Beside the SQL editors: the project's saved queries (open one in a new editor, delete it) and
 * the user's history of runs, newest first (put one back into the editor, clear the history).
 */
import { useEffect, useState } from 'react';
import { sqlClientApi, type HistoryEntry, type SavedQuery } from '../../api/sql-client';
import { toast } from '../../stores/toasts';
import { formatRelative, t } from '../../i18n';
import { formatMs } from '../api-client/units';
import { TipButton } from '../api-client/tip-button';
import { useLatest } from '../../components/use-latest-answer';
import { ConfirmDialog } from '../../components/overlays';

const STATUS_LABEL: Record<HistoryEntry['status'], string> = { ok: '✓', error: '✗', cancelled: '●', timeout: '●' };

const statusText = (s: HistoryEntry['status']) => t('tools.sqlSide.status', { status: s });

export function SqlSidebar(props: { scope: { projectId: string; dbAlias: string }; version: number; onOpen(q: SavedQuery): void; onUse(sql: string): void }) {
  const [saved, setSaved] = useState<SavedQuery[]>([]);
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  // Read again after each run or save: a read answered after a later one does not hide the last run.
  const latestSaved = useLatest();
  const latestHistory = useLatest();
  useEffect(() => {
    void latestSaved(sqlClientApi.queries(props.scope), setSaved, (e) => toast('error', e.message));
    void latestHistory(sqlClientApi.history(props.scope), setHistory, (e) => toast('error', e.message));
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
  // Clearing drops every run for good: asked first.
  const [asking, setAsking] = useState(false);

  return (
    <aside className="sqlc-side">
      <section aria-label={t('tools.sqlSide.saved')}>
        <h3>{t('tools.sqlSide.saved')}</h3>
        {!saved.length ? <p className="muted">{t('tools.sqlSide.savedEmpty')}</p> : null}
        <ul className="sqlc-list">
          {saved.map((q) => (
            <li key={q.id}>
              <button className="sqlc-item" title={q.sql} onClick={() => props.onOpen(q)}>{q.name}</button>
              <TipButton className="icon-btn" label={t('tools.sqlSide.deleteSaved', { name: q.name })} onPress={() => void remove(q)}>×</TipButton>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label={t('tools.sqlSide.history')}>
        <h3>
          {t('tools.sqlSide.history')}
          {history.length ? <button className="link-btn" onClick={() => setAsking(true)}>{t('tools.sqlSide.clear')}</button> : null}
        </h3>
        {asking ? (
          <ConfirmDialog heading={t('tools.sqlSide.clearHeading', { count: history.length })} submitLabel={t('tools.sqlSide.clear')} onCancel={() => setAsking(false)} onSubmit={() => (setAsking(false), void clear())}>
            <p>{t('tools.sqlSide.clearBody')}</p>
          </ConfirmDialog>
        ) : null}
        {!history.length ? <p className="muted">{t('tools.sqlSide.historyEmpty')}</p> : null}
        <ul className="sqlc-list">
          {history.map((h) => (
            <li key={h.id}>
              <button className="sqlc-item sqlc-history" title={t('tools.sqlSide.historyTip', { sql: h.sql, status: statusText(h.status), duration: formatMs(h.durationMs) })} onClick={() => props.onUse(h.sql)}>
                <span className={`sqlc-status sqlc-status-${h.status}`} aria-label={statusText(h.status)}>{STATUS_LABEL[h.status]}</span>
                <span className="sqlc-history-sql">{h.sql.replace(/\s+/g, ' ').slice(0, 80)}</span>
                <span className="muted sqlc-history-time">{formatRelative(h.ranAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
