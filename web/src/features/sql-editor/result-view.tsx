/**
 * The results of a run: one tab per statement (its row count or rows affected, or its error), the
 * chosen one shown as a grid, a query plan, a message or the error with its line and column; time
 * taken and export as CSV.
 */
import { useState } from 'react';
import type { Engine, RunAnswer, StatementResult } from '../../api/sql-client';
import { ResultGrid } from './result-grid';
import { download, toCsv } from './csv';

/** Line and column (1-based) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const summary = (r: StatementResult) =>
  r.error
    ? r.error.kind === 'cancelled' ? 'cancelled' : r.error.kind === 'timeout' ? 'timed out' : 'error'
    : !r.columns.length
      ? `${r.affected} affected`
      : !r.complete
        ? `${r.rows.length.toLocaleString()} rows, reading…`
        : r.truncated
          ? `${r.rows.length.toLocaleString()}+ rows`
          : `${r.rowCount.toLocaleString()} row${r.rowCount === 1 ? '' : 's'}`;

/** A plan as lines: PostgreSQL's text plan, SQLite's tree (id, parent, detail), else null (a grid). */
function planLines(r: StatementResult, engine: Engine): string[] | null {
  if (engine === 'pg' && r.columns.length === 1) return r.rows.map((row) => String(row[0]));
  const id = r.columns.findIndex((c) => c.name === 'id');
  const parent = r.columns.findIndex((c) => c.name === 'parent');
  const detail = r.columns.findIndex((c) => c.name === 'detail');
  if (engine !== 'sqlite' || id < 0 || parent < 0 || detail < 0) return null;
  const depth = new Map<number, number>([[0, -1]]);
  return r.rows.map((row) => {
    const d = (depth.get(Number(row[parent])) ?? -1) + 1;
    depth.set(Number(row[id]), d);
    return `${'   '.repeat(d)}${d ? '└─ ' : ''}${String(row[detail])}`;
  });
}

function StatementView(props: { r: StatementResult; index: number; engine: Engine; explain: boolean; docText: string; offset: number }) {
  const { r } = props;
  if (r.error) {
    const at = r.error.position === undefined ? null : lineColumn(props.docText, props.offset + r.start + r.error.position);
    const where = at ? ` at line ${at.line}, column ${at.column}` : r.error.line ? ` at line ${r.error.line} of the statement` : '';
    return (
      <div className={`sqlr-message sqlr-error sqlr-${r.error.kind}`} role="alert">
        <strong>{r.error.kind === 'cancelled' ? 'Cancelled' : r.error.kind === 'timeout' ? 'Time-out' : 'Error'}{where}:</strong> {r.error.msg}
      </div>
    );
  }
  if (!r.columns.length) return <div className="sqlr-message" role="status">{r.affected.toLocaleString()} row{r.affected === 1 ? '' : 's'} affected.</div>;
  const plan = props.explain ? planLines(r, props.engine) : null;
  if (plan) return <pre className="sqlr-plan" aria-label="Query plan">{plan.join('\n')}</pre>;
  return <ResultGrid columns={r.columns} rows={r.rows} label={`Result ${props.index + 1}`} />;
}

/** `docText` is the editor's text when the run was sent and `offset` where the run's text began in it. */
export function ResultView(props: { answer: RunAnswer; explain: boolean; docText: string; offset: number }) {
  const { answer } = props;
  const [chosen, setChosen] = useState(() => {
    const err = answer.results.findIndex((r) => r.error);
    return err >= 0 ? err : answer.results.length - 1;
  });
  const i = Math.min(chosen, answer.results.length - 1);
  const r = answer.results[i]!;
  return (
    <div className="sqlr">
      <div className="sqlr-tabs" role="tablist" aria-label="Results">
        {answer.results.map((x, n) => (
          <button key={n} role="tab" aria-selected={n === i} className={`sqlr-tab${n === i ? ' active' : ''}${x.error ? ' failed' : ''}`} onClick={() => setChosen(n)} title={x.sql}>
            {props.explain ? 'Plan' : 'Result'} {n + 1} · {summary(x)}
          </button>
        ))}
        {answer.skipped ? <span className="muted sqlr-skipped">{answer.skipped} not run</span> : null}
      </div>
      <div className="sqlr-meta">
        <span>{summary(r)}{r.truncated && r.complete ? ` (cut at ${r.rows.length.toLocaleString()}: add a LIMIT or a WHERE to see others)` : ''}</span>
        {r.loadError ? <span className="sqlr-load-error" role="alert">Reading stopped after {r.rows.length.toLocaleString()} rows: {r.loadError}</span> : null}
        <span>{r.ms} ms</span>
        <code className="sqlr-sql" title={r.sql}>{r.sql.length > 120 ? r.sql.slice(0, 120) + '…' : r.sql}</code>
        {r.columns.length ? (
          <button className="btn btn-ghost btn-small" disabled={!r.complete && !r.loadError} title={r.complete ? 'Download these rows as CSV' : 'Available once every row is read'} onClick={() => download(`result-${i + 1}.csv`, toCsv(r.columns, r.rows))}>
            Export CSV
          </button>
        ) : null}
      </div>
      <StatementView r={r} index={i} engine={answer.engine} explain={props.explain} docText={props.docText} offset={props.offset} />
    </div>
  );
}
