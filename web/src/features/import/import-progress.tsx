/** The progress step: a bar with rows done, the estimated total and time left, Cancel; then the outcome and the rows that did not fit. */
import type { ImportJob } from '../../api/transfer';
import { formatNumber, t } from '../../i18n';
import { duration, outcome, problemReason } from './import-store';

function runningText(j: ImportJob): string {
  if (j.rowsRead === 0) return t('tools.import.readingFile');
  const count = j.rowsImported;
  if (j.estimatedRows && j.etaMs !== null) return t('tools.import.progressEstimateEta', { count, estimate: j.estimatedRows, left: duration(j.etaMs) });
  if (j.estimatedRows) return t('tools.import.progressEstimate', { count, estimate: j.estimatedRows });
  if (j.etaMs !== null) return t('tools.import.progressEta', { count, left: duration(j.etaMs) });
  return t('tools.import.progress', { count });
}

export function ImportProgress(props: { job: ImportJob }) {
  const j = props.job;
  const pct = Math.round(j.progress * 100);
  return (
    <div className="import-progress">
      <div className="import-bar" role="progressbar" aria-label={t('tools.import.progressLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={formatNumber(j.progress, { style: 'percent' })}>
        <div style={{ width: `${pct}%` }} />
      </div>
      {/* The counts change at every poll (the bar tells the progress); only the outcome is announced. */}
      <div data-testid="import-counts">
        {j.status === 'running' ? runningText(j) : null}
        <span role="status">{j.status === 'running' ? '' : outcome(j)}</span>
      </div>
      {j.problemCount ? (
        <>
          <div className="muted">
            {j.problemCount > j.problems.length ? t('tools.import.misfitsFirst', { count: j.problemCount, shown: j.problems.length }) : t('tools.import.misfits', { count: j.problemCount })}
          </div>
          <div className="import-problems">
            <table>
              <thead>
                <tr>
                  <th>{t('tools.import.colRow')}</th>
                  <th>{t('tools.import.colColumn')}</th>
                  <th>{t('tools.import.colValue')}</th>
                  <th>{t('tools.import.colReason')}</th>
                </tr>
              </thead>
              <tbody>
                {j.problems.slice(0, 200).map((p, i) => (
                  <tr key={i}>
                    <td>{p.row}</td>
                    <td>{p.column ?? ''}</td>
                    <td>{p.value === null || p.value === undefined ? '' : String(p.value)}</td>
                    <td>{problemReason(p)}</td>
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
