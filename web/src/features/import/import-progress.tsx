/** The progress step: a bar with rows done, the estimated total and time left, Cancel; then the outcome and the rows that did not fit. */
import type { ImportJob } from '../../api/transfer';
import { duration, outcome } from './import-store';

export function ImportProgress(props: { job: ImportJob }) {
  const j = props.job;
  const pct = Math.round(j.progress * 100);
  return (
    <div className="import-progress">
      <div className="import-bar" role="progressbar" aria-label="Import progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <div data-testid="import-counts">
        {j.status === 'running' && j.rowsRead === 0
          ? 'Reading the file…'
          : j.status === 'running'
          ? `${j.rowsImported.toLocaleString()} rows imported${j.estimatedRows ? ` of about ${j.estimatedRows.toLocaleString()}` : ''}${j.etaMs !== null ? `, about ${duration(j.etaMs)} left` : ''}`
          : outcome(j)}
      </div>
      {j.problemCount ? (
        <>
          <div className="muted">
            {j.problemCount.toLocaleString()} {j.problemCount === 1 ? 'row does not fit its column' : 'rows do not fit their columns'}{j.problemCount > j.problems.length ? ` (the first ${j.problems.length} below)` : ''}:
          </div>
          <div className="import-problems">
            <table>
              <thead>
                <tr>
                  <th>Row</th>
                  <th>Column</th>
                  <th>Value</th>
                  <th>Reason</th>
                </tr>
              </thead>
              <tbody>
                {j.problems.slice(0, 200).map((p, i) => (
                  <tr key={i}>
                    <td>{p.row}</td>
                    <td>{p.column ?? ''}</td>
                    <td>{p.value === null || p.value === undefined ? '' : String(p.value)}</td>
                    <td>{p.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
