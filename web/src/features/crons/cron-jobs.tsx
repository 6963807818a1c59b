/**
 * The Cron Jobs tab: every job of the project with its pattern, next run and last result; create,
 * edit, pause / resume, run now, delete, and each job's run log (duration and result).
 */
import { useEffect, useState } from 'react';
import { cronsApi, type CronJob, type CronRun } from '../../api/automations';
import { dashboardApi } from '../../api/dashboard';
import { Button, FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { CronForm } from './cron-form';

const actionText = (j: CronJob) => (j.action.type === 'url' ? `${j.action.method} ${j.action.url}` : `SQL on ${j.action.dbAlias}: ${j.action.sql}`);
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function RunLog(props: { runs: CronRun[] | null }) {
  if (!props.runs) return <p className="muted">Loading…</p>;
  if (!props.runs.length) return <p className="muted">No runs yet.</p>;
  return (
    <table className="list-table" aria-label="Run log">
      <thead><tr><th>Started</th><th>How</th><th>Status</th><th>Duration</th><th>Result</th></tr></thead>
      <tbody>
        {props.runs.map((r) => (
          <tr key={r.id}>
            <td>{when(r.started_at)}</td><td>{r.manual ? 'run now' : 'schedule'}</td>
            <td><span className={`badge badge-${r.status === 'success' ? 'applied' : r.status === 'error' ? 'failed' : 'pending'}`}>{r.status}</span></td>
            <td>{r.duration_ms === null ? '' : `${r.duration_ms} ms`}</td>
            <td className={r.error ? 'hook-error' : 'cron-result'}>{r.error ?? r.result ?? ''}</td>
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
  const load = () => cronsApi.list(scope).then(setJobs, (e) => setError((e as Error).message));
  const loadRuns = (id: string) => cronsApi.logs(scope, id).then(setRuns, (e) => setError((e as Error).message));
  useEffect(() => {
    void load();
    dashboardApi.envs(props.projectId).then((e) => setDbAliases(e.envs[e.workingEnv]?.dbs.map((d) => d.dbAlias) ?? [props.dbAlias]), () => {});
    const timer = setInterval(() => void load(), 5000);
    return () => clearInterval(timer);
  }, [props.projectId]);
  useEffect(() => {
    if (!logOf) return;
    setRuns(null);
    void loadRuns(logOf);
    const timer = setInterval(() => void loadRuns(logOf), 3000);
    return () => clearInterval(timer);
  }, [logOf]);
  const act = (title: string, p: Promise<unknown>) => track(title, p).then(load, (e) => setError((e as Error).message));
  return (
    <div className="panel cron-panel" role="region" aria-label="Cron Jobs">
      <div className="hooks-head">
        <h2>Cron Jobs</h2>
        <Button onClick={() => setEditing('new')}>+ New cron job</Button>
      </div>
      <FormMessage kind="error" text={error} />
      {editing ? <CronForm key={editing === 'new' ? 'new' : editing.id} scope={scope} job={editing === 'new' ? null : editing} dbAliases={dbAliases} onDone={(saved) => (setEditing(null), saved && void load())} /> : null}
      {jobs === null ? <p className="muted">Loading…</p> : jobs.length === 0 ? <p className="muted">No cron jobs yet: a job calls a URL or runs SQL on a schedule.</p> : (
        <table className="list-table" aria-label="Cron jobs">
          <thead><tr><th>Title</th><th>Pattern</th><th>Action</th><th>Next run</th><th>Last run</th><th>State</th><th aria-label="Actions" /></tr></thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>{j.title}</td>
                <td><code>{j.pattern}</code> <span className="muted">{j.timezone}</span></td>
                <td className="cron-action">{actionText(j)}</td>
                <td>{j.active ? when(j.next_runs[0] ?? null) : '—'}</td>
                <td>{when(j.last_run_at)} {j.last_status ? <span className={`badge badge-${j.last_status === 'success' ? 'applied' : 'failed'}`}>{j.last_status}</span> : null}</td>
                <td>{j.active ? 'active' : 'paused'}</td>
                <td><div className="row-actions">
                  <Button variant="ghost" onClick={() => void act('Cron job ran', cronsApi.run(scope, j.id).then(() => void (logOf === j.id && loadRuns(j.id))))}>Run now</Button>
                  <Button variant="ghost" onClick={() => void act(j.active ? 'Cron job paused' : 'Cron job resumed', cronsApi.update(scope, j.id, { active: !j.active }))}>{j.active ? 'Pause' : 'Resume'}</Button>
                  <Button variant="ghost" onClick={() => setEditing(j)}>Edit</Button>
                  <Button variant="ghost" onClick={() => setLogOf(logOf === j.id ? null : j.id)}>{logOf === j.id ? 'Hide log' : 'Log'}</Button>
                  <Button variant="ghost" onClick={() => void act('Cron job deleted', cronsApi.remove(scope, j.id))}>Delete</Button>
                </div></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {logOf ? (
        <section aria-label="Runs">
          <h3>Runs of {jobs?.find((j) => j.id === logOf)?.title}</h3>
          <RunLog runs={runs} />
        </section>
      ) : null}
    </div>
  );
}
