/**
 * The comments and the history of an expanded row: comments (with author and time) and a box to add
 * one for commenters and above, Edit and Delete where the server allows them (comment-item.tsx); the history of changes (who, when, which column, before and after)
 * as the server lets this reader see it, each value shown as the grid shows its column (history-value-view.tsx). Both follow
 * what others (and this user elsewhere) do to the row while it is open. Two react-aria tabs.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { rowActivityApi, type RowChange, type RowComment } from '../../api/row-activity';
import { Button, FormMessage } from '../../components/form';
import { formatDateTime, formatRelative, t, tx } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';
import { CommentItem } from './comment-item';
import { CreatedValues, HistoryValue } from './history-value-view';
import type { ColumnMeta } from '../../api/dashboard';
import { liveConnection } from '../../stores/realtime';
import { authorName } from '../../i18n/author-names';

type Pane = 'comments' | 'history';

/**
 * `table`: the name the grid shows the table under (its realtime name), for comments written and changes made meanwhile by others;
 * `pks`: the names of the row's key columns in the rows of realtime events (their values joined make `pk`);
 * `columns`: the table's columns, by which the history's values are shown.
 */
export function RowActivity(props: { projectId: string; dbAlias: string; tn: string; table: string; pk: string; pks: string[]; canComment: boolean; columns: ColumnMeta[] }) {
  const [tab, setTab] = useState<Pane>('comments');
  const [comments, setComments] = useState<RowComment[] | null>(null);
  const [history, setHistory] = useState<RowChange[] | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { projectId, dbAlias, tn, pk } = props;
  // The comments and history of the row shown now, not of one shown before.
  const latestComments = useLatest();
  const latestHistory = useLatest();
  useEffect(() => {
    void latestComments(rowActivityApi.comments(projectId, dbAlias, tn, pk), setComments, (e) => setError(e.message));
    void latestHistory(rowActivityApi.history(projectId, dbAlias, tn, pk), setHistory, (e) => setError(e.message));
  }, [projectId, dbAlias, tn, pk]);
  // Comments added, edited or deleted by others while the row is open show at once.
  useEffect(
    () => liveConnection(projectId).onComments(props.table, () => void latestComments(rowActivityApi.comments(projectId, dbAlias, tn, pk), setComments, () => {})),
    [projectId, dbAlias, tn, props.table, pk],
  );
  // The history follows the row's changes made while it is open (here, in another tab, by others, through the API).
  useEffect(
    () =>
      liveConnection(projectId).subscribe(props.table, (e) => {
        if (e.type === 'rows' && !(e.op === 'update' && e.rows.some((r) => props.pks.map((k) => String(r[k])).join('___') === pk))) return;
        void latestHistory(rowActivityApi.history(projectId, dbAlias, tn, pk), setHistory, () => {});
      }),
    [projectId, dbAlias, tn, props.table, pk, props.pks.join()],
  );
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    try {
      const c = await rowActivityApi.comment(projectId, dbAlias, tn, pk, text.trim());
      setComments((list) => [...(list ?? []), c]);
      setText('');
      setError(null);
    } catch (x) {
      setError((x as Error).message);
    }
  };
  /** Runs a change of one comment; its error is shown above the list and passed on. */
  const change = async (run: () => Promise<void>) => {
    try {
      await run();
      setError(null);
    } catch (x) {
      setError((x as Error).message);
      throw x;
    }
  };
  const save = (id: string) => (body: string) =>
    change(async () => {
      const c = await rowActivityApi.editComment(projectId, dbAlias, tn, pk, id, body);
      setComments((list) => (list ?? []).map((o) => (o.id === id ? c : o)));
    });
  const remove = (id: string) => () =>
    change(async () => {
      await rowActivityApi.deleteComment(projectId, dbAlias, tn, pk, id);
      setComments((list) => (list ?? []).filter((o) => o.id !== id));
    });
  const someone = t('grid.activity.someone');
  const when = (iso: string) => <span className="muted" title={formatDateTime(iso)}>{formatRelative(iso)}</span>;
  const columnOf = (name: string | null) => (name === null ? undefined : props.columns.find((c) => c._cn === name));
  return (
    <section className="row-activity" aria-label={t('grid.activity.label')}>
      <Tabs selectedKey={tab} onSelectionChange={(k) => setTab(k as Pane)}>
        <TabList className="tab-strip small" aria-label={t('grid.activity.label')}>
          <Tab id="comments" className={({ isSelected }) => (isSelected ? 'active' : '')}>{t('grid.activity.commentsTab', { count: comments?.length ?? 0 })}</Tab>
          <Tab id="history" className={({ isSelected }) => (isSelected ? 'active' : '')}>{t('grid.activity.historyTab')}</Tab>
        </TabList>
        <FormMessage kind="error" text={error} />
        <TabPanel id="comments" className="comments">
          {comments?.length === 0 ? <p className="muted">{t('grid.activity.noComments')}</p> : null}
          <ul aria-label={t('grid.activity.commentsList')}>
            {comments?.map((c) => <CommentItem key={c.id} comment={c} when={when} onSave={save(c.id)} onDelete={remove(c.id)} />)}
          </ul>
          {props.canComment ? (
            <div className="comment-form">
              <textarea aria-label={t('grid.activity.newComment')} rows={2} placeholder={t('grid.activity.writeComment')} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && add(e)} />
              <Button onClick={() => void add({ preventDefault() {} } as FormEvent)} disabled={!text.trim()}>{t('grid.activity.comment')}</Button>
            </div>
          ) : null}
        </TabPanel>
        <TabPanel id="history">
          <ul className="history" aria-label={t('grid.activity.historyTab')}>
            {history?.length === 0 ? <li className="muted">{t('grid.activity.noChanges')}</li> : null}
            {history?.map((h) => {
              const user = <strong>{h.user ? authorName(h.user) : someone}</strong>;
              return (
                <li key={h.id}>
                  {when(h.createdAt)}{' '}
                  {h.op === 'update'
                    ? tx('grid.activity.changed', { user, column: <em>{h.column}</em>, from: <HistoryValue column={columnOf(h.column)} raw={h.prevValue} />, to: <HistoryValue column={columnOf(h.column)} raw={h.value} /> })
                    : h.op === 'insert'
                      ? <>{tx('grid.activity.created', { user })}<CreatedValues columns={props.columns} raw={h.value} /></>
                      : h.op === 'delete'
                        ? tx('grid.activity.deleted', { user })
                        : h.op === 'link' || h.op === 'unlink'
                          ? <LinkChange user={user} op={h.op} raw={h.value} />
                          : tx('grid.activity.other', { user, op: h.op })}
                </li>
              );
            })}
          </ul>
        </TabPanel>
      </Tabs>
    </section>
  );
}

/** A row linked or unlinked: the other row by its table and display value (or id). */
function LinkChange(props: { user: ReactNode; op: 'link' | 'unlink'; raw: string | null }) {
  let other: { table?: string; id?: string; label?: string } = {};
  try {
    other = JSON.parse(props.raw ?? '{}') as typeof other;
  } catch {}
  const row = <em>{other.label ?? other.id ?? ''}</em>;
  return <>{tx(props.op === 'link' ? 'grid.activity.linked' : 'grid.activity.unlinked', { user: props.user, table: other.table ?? '', row })}</>;
}
