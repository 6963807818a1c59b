/**
 * The comments and the history of an expanded row: comments (with author and time) and a box to add
 * one for commenters and above; the history of changes (who, when, which column, before and after)
 * as the server lets this reader see it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { rowActivityApi, type RowChange, type RowComment } from '../../api/row-activity';
import { Button, FormMessage } from '../../components/form';
import { relativeTime } from '../../lib/relative-time';

export function RowActivity(props: { projectId: string; dbAlias: string; tn: string; pk: string; canComment: boolean }) {
  const [tab, setTab] = useState<'Comments' | 'History'>('Comments');
  const [comments, setComments] = useState<RowComment[] | null>(null);
  const [history, setHistory] = useState<RowChange[] | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { projectId, dbAlias, tn, pk } = props;
  useEffect(() => {
    rowActivityApi.comments(projectId, dbAlias, tn, pk).then(setComments, (e) => setError(e.message));
    rowActivityApi.history(projectId, dbAlias, tn, pk).then(setHistory, (e) => setError(e.message));
  }, [projectId, dbAlias, tn, pk]);
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
  return (
    <section className="row-activity" aria-label="Row activity">
      <div className="tab-strip small" role="tablist">
        {(['Comments', 'History'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className={tab === t ? 'active' : ''} onClick={() => setTab(t)}>
            {t}{t === 'Comments' && comments?.length ? ` (${comments.length})` : ''}
          </button>
        ))}
      </div>
      <FormMessage kind="error" text={error} />
      {tab === 'Comments' ? (
        <div className="comments">
          {comments?.length === 0 ? <p className="muted">No comments yet.</p> : null}
          <ul aria-label="Comments">
            {comments?.map((c) => (
              <li key={c.id}>
                <div className="comment-head"><strong>{c.user ?? 'someone'}</strong> <span className="muted" title={c.createdAt}>{relativeTime(c.createdAt)}</span></div>
                <div className="comment-body">{c.body}</div>
              </li>
            ))}
          </ul>
          {props.canComment ? (
            <div className="comment-form">
              <textarea aria-label="New comment" rows={2} placeholder="Write a comment" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && add(e)} />
              <Button onClick={() => void add({ preventDefault() {} } as FormEvent)} disabled={!text.trim()}>Comment</Button>
            </div>
          ) : null}
        </div>
      ) : (
        <ul className="history" aria-label="History">
          {history?.length === 0 ? <li className="muted">No changes recorded.</li> : null}
          {history?.map((h) => (
            <li key={h.id}>
              <span className="muted" title={h.createdAt}>{relativeTime(h.createdAt)}</span> <strong>{h.user ?? 'someone'}</strong>{' '}
              {h.op === 'update' ? (
                <>changed <em>{h.column}</em> from <code>{h.prevValue ?? 'empty'}</code> to <code>{h.value ?? 'empty'}</code></>
              ) : h.op === 'insert' ? (
                <>created the row</>
              ) : (
                <>{h.op}</>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
