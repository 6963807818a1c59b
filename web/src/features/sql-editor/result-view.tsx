/**
 * The results of a run: one tab per statement (its row count or rows affected, or its error), the
 * chosen one shown as a grid, a query plan, a message or the error with its line and column; time
 * taken and export as CSV.
 */
import { useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import type { Engine, RunAnswer, StatementResult } from '../../api/sql-client';
import { t } from '../../i18n';
import { formatMs } from '../api-client/units';
import { ResultGrid } from './result-grid';
import { download, toCsv } from './csv';

/** Line and column (1-based) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const summary = (r: StatementResult) =>
  r.error
    ? r.error.kind === 'cancelled'
      ? t('tools.sqlResult.summaryCancelled')
      : r.error.kind === 'timeout'
        ? t('tools.sqlResult.summaryTimeout')
        : t('tools.sqlResult.summaryError')
    : !r.columns.length
      ? t('tools.sqlResult.summaryAffected', { count: r.affected })
      : !r.complete
        ? t('tools.sqlResult.summaryReading', { count: r.rows.length })
        : r.truncated
          ? t('tools.sqlResult.summaryMore', { count: r.rows.length })
          : t('tools.sqlResult.summaryRows', { count: r.rowCount });

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

function errorHeading(kind: string, at: { line: number; column: number } | null, statementLine: number | undefined): string {
  if (at) return t('tools.sqlResult.errorAt', { kind, line: at.line, column: at.column });
  if (statementLine) return t('tools.sqlResult.errorAtStatementLine', { kind, line: statementLine });
  return t('tools.sqlResult.errorPlain', { kind });
}

function StatementView(props: { r: StatementResult; index: number; engine: Engine; explain: boolean; docText: string; offset: number }) {
  const { r } = props;
  if (r.error) {
    const at = r.error.position === undefined ? null : lineColumn(props.docText, props.offset + r.start + r.error.position);
    return (
      <div className={`sqlr-message sqlr-error sqlr-${r.error.kind}`} role="alert">
        <strong>{errorHeading(r.error.kind, at, r.error.line)}</strong> {r.error.msg}
      </div>
    );
  }
  if (!r.columns.length) return <div className="sqlr-message" role="status">{t('tools.sqlResult.affected', { count: r.affected })}</div>;
  const plan = props.explain ? planLines(r, props.engine) : null;
  if (plan) return <pre className="sqlr-plan" aria-label={t('tools.sqlResult.queryPlan')}>{plan.join('\n')}</pre>;
  return <ResultGrid columns={r.columns} rows={r.rows} label={t('tools.sqlResult.gridLabel', { n: props.index + 1 })} />;
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
  const text = summary(r);
  return (
    <Tabs className="sqlr" selectedKey={String(i)} onSelectionChange={(k) => setChosen(Number(k))}>
      <div className="sqlr-tabs">
        <TabList className="sqlr-tablist" aria-label={t('tools.sqlResult.tabsLabel')}>
          {answer.results.map((x, n) => (
            <Tab key={n} id={String(n)} className={({ isSelected }) => `sqlr-tab${isSelected ? ' active' : ''}${x.error ? ' failed' : ''}`}>
              <span title={x.sql}>{props.explain ? t('tools.sqlResult.planTab', { n: n + 1, summary: summary(x) }) : t('tools.sqlResult.resultTab', { n: n + 1, summary: summary(x) })}</span>
            </Tab>
          ))}
        </TabList>
        {answer.skipped ? <span className="muted sqlr-skipped">{t('tools.sqlResult.skipped', { count: answer.skipped })}</span> : null}
      </div>
      <TabPanel id={String(i)} className="sqlr-panel">
        <div className="sqlr-meta">
          <span>{r.truncated && r.complete ? t('tools.sqlResult.cutAt', { summary: text, count: r.rows.length }) : text}</span>
          {r.loadError ? <span className="sqlr-load-error" role="alert">{t('tools.sqlResult.readingStopped', { count: r.rows.length, error: r.loadError })}</span> : null}
          <span>{formatMs(r.ms)}</span>
          <code className="sqlr-sql" title={r.sql}>{r.sql.length > 120 ? r.sql.slice(0, 120) + '…' : r.sql}</code>
          {r.columns.length ? (
            <button
              className="btn btn-ghost btn-small"
              disabled={!r.complete && !r.loadError}
              title={r.complete ? t('tools.sqlResult.exportCsvTip') : t('tools.sqlResult.exportCsvWait')}
              onClick={() => download(`result-${i + 1}.csv`, toCsv(r.columns, r.rows))} // i18n-ignore
            >
              {t('tools.sqlResult.exportCsv')}
            </button>
          ) : null}
        </div>
        <StatementView r={r} index={i} engine={answer.engine} explain={props.explain} docText={props.docText} offset={props.offset} />
      </TabPanel>
    </Tabs>
  );
}
