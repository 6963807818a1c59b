/**
 * The Cron Jobs tab: every job of the project with its pattern, next run and last result; create,
 * edit, pause / resume, run now, delete, and each job's run log (duration and result).
 */
import { useEffect, useState } from 'react';
import { cronsApi, type CronJob, type CronRun } from '../../api/automations';
import { dashboardApi } from '../../api/dashboard';
import { Button, FormMessage } from '../../components/form';
import { ConfirmButton } from '../../components/confirm-button';
import { track } from '../../stores/notifications';
import { CronForm } from './cron-form';
import { formatDateTime, formatNumber, locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { deliveryStatus } from '../hooks/hook-editor';
import { useLatest } from '../../components/use-latest-answer';

const actionText = (j: CronJob) =>
  j.action.type === 'url' ? t('admin.crons.actionUrl', { method: j.action.method, url: j.action.url }) : t('admin.crons.actionSql', { db: j.action.dbAlias, sql: j.action.sql });
const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');
/** A run's start to the second: runs of a job with seconds in its pattern are seconds apart. */
const startedAt = (iso: string) => formatDateTime(iso, { dateStyle: 'medium', timeStyle: 'medium' });
/** A job's next run: to the second when its pattern has seconds (6 fields), as the form shows it. */
const nextRun = (j: CronJob) => {
  const iso = j.active ? j.next_runs[0] : undefined;
  if (!iso) return '—';
  return j.pattern.trim().split(/\s+/).length === 6 ? startedAt(iso) : when(iso);
};

function RunLog(props: { runs: CronRun[] | null }) {
  if (!props.runs) return <p className="muted">{t('admin.common.loading')}</p>;
  if (!props.runs.length) return <p className="muted">{t('admin.crons.noRuns')}</p>;
  return (
    <table className="list-table" aria-label={t('admin.crons.runLog')}>
      <thead><tr><th>{t('admin.crons.colStarted')}</th><th>{t('admin.crons.colHow')}</th><th>{t('admin.crons.colStatus')}</th><th>{t('admin.crons.colDuration')}</th><th>{t('admin.crons.colResult')}</th></tr></thead>
      <tbody>
        {props.runs.map((r) => (
          <tr key={r.id}>
            <td>{startedAt(r.started_at)}</td><td>{r.manual ? t('admin.crons.howManual') : t('admin.crons.howSchedule')}</td>
            <td><span className={`badge badge-${r.status === 'success' ? 'applied' : r.status === 'error' ? 'failed' : 'pending'}`}>{deliveryStatus(r.status)}</span></td>
            <td>{r.duration_ms === null ? '' : t('admin.crons.durationMs', { ms: formatNumber(r.duration_ms) })}</td>
            <td className={r.error ? 'hook-error' : 'cron-result'}>{r.error ? translateServerMessage(r.error, locale.value) : (r.result ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CronJobs(props: { projectId: string; dbAlias: string }) {
  const scope = { projectId: props.projectId, dbAlias: props.dbAlias };
  const [jobs, setJobs] = useState<CronJob[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<CronJob | 'new' | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [runs, setRuns] = useState<CronRun[] | null>(null);
  const [dbAliases, setDbAliases] = useState<string[]>([props.dbAlias]);
  // The polls and the reads after an action overlap: only the latest one's answer is shown, and the
  // run log is the one of the job picked last.
  const latestJobs = useLatest();
  const latestRuns = useLatest();
  const load = () => latestJobs(cronsApi.list(scope), setJobs, (e) => setError(e.message));
  const loadRuns = (id: string) => latestRuns(cronsApi.logs(scope, id), setRuns, (e) => setError(e.message));
  useEffect(() => {
    void load();
    dashboardApi.envs(props.projectId).then((e) => setDbAliases(e.envs[e.workingEnv]?.dbs.map((d) => d.dbAlias) ?? [props.dbAlias]), () => {});
    const timer = setInterval(() => void load(), 5000);
    return () => clearInterval(timer);
  }, [props.projectId]);
  useEffect(() => {
    if (!logOf) return latestRuns.drop();
    setRuns(null);
    void loadRuns(logOf);
    const timer = setInterval(() => void loadRuns(logOf), 3000);
    return () => clearInterval(timer);
  }, [logOf]);
  /** Runs an action on a job: `op` names it (while it runs, and when it fails), `done` says it succeeded. */
  const act = (op: string, done: string, p: Promise<unknown>) => track(op, p, done).then(load, (e) => setError((e as Error).message));
  return (
    <div className="panel cron-panel" role="region" aria-label={t('admin.crons.panelTitle')}>
      <div className="hooks-head">
        <h2>{t('admin.crons.panelTitle')}</h2>
        <Button onClick={() => setEditing('new')}>{t('admin.crons.newCron')}</Button>
      </div>
      <FormMessage kind="error" text={error} />
      {editing ? <CronForm key={editing === 'new' ? 'new' : editing.id} scope={scope} job={editing === 'new' ? null : editing} dbAliases={dbAliases} onDone={(saved) => (setEditing(null), saved && void load())} /> : null}
      {jobs === null ? <p className="muted">{t('admin.common.loading')}</p> : jobs.length === 0 ? <p className="muted">{t('admin.crons.empty')}</p> : (
        <table className="list-table" aria-label={t('admin.crons.tableLabel')}>
          <thead><tr><th>{t('admin.crons.title')}</th><th>{t('admin.crons.pattern')}</th><th>{t('admin.crons.action')}</th><th>{t('admin.crons.colNextRun')}</th><th>{t('admin.crons.colLastRun')}</th><th>{t('admin.crons.colState')}</th><th aria-label={t('admin.common.actions')} /></tr></thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>{j.title}</td>
                <td><code>{j.pattern}</code> <span className="muted">{j.timezone}</span></td>
                <td className="cron-action">{actionText(j)}</td>
                <td>{nextRun(j)}</td>
                <td>{when(j.last_run_at)} {j.last_status ? <span className={`badge badge-${j.last_status === 'success' ? 'applied' : 'failed'}`}>{deliveryStatus(j.last_status)}</span> : null}</td>
                <td>{j.active ? t('admin.crons.stateActive') : t('admin.crons.statePaused')}</td>
                <td><div className="row-actions">
                  <Button variant="ghost" onClick={() => void act(t('admin.crons.runOp'), t('admin.crons.ran'), cronsApi.run(scope, j.id).then(() => void (logOf === j.id && loadRuns(j.id))))}>{t('admin.crons.runNow')}</Button>
                  <Button variant="ghost" onClick={() => void act(j.active ? t('admin.crons.pauseOp') : t('admin.crons.resumeOp'), j.active ? t('admin.crons.paused') : t('admin.crons.resumed'), cronsApi.update(scope, j.id, { active: !j.active }))}>{j.active ? t('admin.crons.pause') : t('admin.crons.resume')}</Button>
                  <Button variant="ghost" onClick={() => setEditing(j)}>{t('admin.crons.editButton')}</Button>
                  <Button variant="ghost" onClick={() => setLogOf(logOf === j.id ? null : j.id)}>{logOf === j.id ? t('admin.crons.hideLog') : t('admin.crons.log')}</Button>
                  <ConfirmButton
                    label={t('admin.crons.delete')}
                    heading={t('admin.crons.deleteHeading', { title: j.title })}
                    body={t('admin.crons.deleteBody')}
                    onConfirm={() => void act(t('admin.crons.deleteOp'), t('admin.crons.deleted'), cronsApi.remove(scope, j.id).then(() => logOf === j.id && setLogOf(null)))}
                  />
                </div></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {logOf && jobs?.some((j) => j.id === logOf) ? (
        <section aria-label={t('admin.crons.runs')}>
          <h3>{t('admin.crons.runsOf', { title: jobs?.find((j) => j.id === logOf)?.title ?? '' })}</h3>
          <RunLog runs={runs} />
        </section>
      ) : null}
    </div>
  );
}
