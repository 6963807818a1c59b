/**
 * Create or edit a cron job: title, pattern and time zone (the next run times are shown while
 * typing, or why the pattern is wrong), and the action (HTTP call with its headers and body, or SQL on
 * a project database).
 */
import { useRef, useState } from 'react';
import { cronsApi, type CronAction, type CronDraft, type CronJob } from '../../api/automations';
import { Button, FormMessage } from '../../components/form';
import { useLatestAnswer } from '../../components/use-latest-answer';
import { formatDateTime, t } from '../../i18n';
import { ToggleSwitch } from '../hooks/toggle-switch';
import { HeadersField } from '../hooks/action-fields';

type Scope = { projectId: string; dbAlias: string };

/** IANA zones the browser knows, offered while typing the job's time zone. */
const ZONES: string[] = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];

export const emptyCron = (): CronDraft => ({ title: '', pattern: '*/5 * * * *', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', active: true, action: { type: 'url', method: 'POST', url: '', headers: {} } });

/** The next run times of the pattern being typed (debounced), or the server's reason it is wrong. */
function NextRuns(props: { scope: Scope; pattern: string; timezone: string }) {
  const [runs, setRuns] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useLatestAnswer(
    () => cronsApi.preview(props.scope, props.pattern, props.timezone),
    (r) => (setRuns(r), setError(null)),
    (e) => (setRuns(null), setError(e.message)),
    [props.pattern, props.timezone],
    250,
  );
  if (error) return <div className="field-error" role="alert">{error}</div>;
  if (!runs) return <p className="muted">…</p>;
  // A pattern of 6 fields starts with seconds: its runs may be seconds apart, so they show them.
  const withSeconds = props.pattern.trim().split(/\s+/).length === 6;
  // In the job's time zone (the one its pattern is read in), which the list names; a zone the browser lacks: its own.
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: withSeconds ? 'medium' : 'short' };
  const format = (iso: string) => {
    try {
      return formatDateTime(iso, { ...options, timeZone: props.timezone });
    } catch {
      return formatDateTime(iso, options);
    }
  };
  return (
    <div className="cron-next" role="group" aria-label={t('admin.crons.nextRunTimes')}>
      {t('admin.crons.nextRuns')} {runs.map((r) => <span key={r} className="chip">{format(r)}</span>)} <span className="muted">{props.timezone}</span>
    </div>
  );
}

export function CronForm(props: { scope: Scope; job: CronJob | null; dbAliases: string[]; onDone: (saved: boolean) => void }) {
  const j = props.job;
  const [d, setD] = useState<CronDraft>(j ? { title: j.title, pattern: j.pattern, timezone: j.timezone, active: j.active, action: j.action } : emptyCron());
  const [error, setError] = useState<string | null>(null);
  const a = d.action;
  /** What was typed for each action type while the form is open: switching the type back brings it again. */
  const drafts = useRef<Partial<Record<CronAction['type'], CronAction>>>({});
  const switchType = (type: CronAction['type']) => {
    drafts.current[a.type] = a;
    const fresh: CronAction = type === 'sql' ? { type: 'sql', sql: '', dbAlias: props.dbAliases[0] ?? 'db' } : { type: 'url', method: 'POST', url: '', headers: {} };
    setD({ ...d, action: drafts.current[type] ?? fresh });
  };
  const save = async () => {
    setError(null);
    try {
      if (j) await cronsApi.update(props.scope, j.id, d);
      else await cronsApi.create(props.scope, d);
      props.onDone(true);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="cron-form" aria-label={j ? t('admin.crons.edit', { title: j.title }) : t('admin.crons.newJob')}>
      <h3>{j ? t('admin.crons.edit', { title: j.title }) : t('admin.crons.newJob')}</h3>
      <div className="hook-grid">
        <label className="field">{t('admin.crons.title')}<input aria-label={t('admin.crons.jobTitle')} value={d.title} onChange={(e) => setD({ ...d, title: e.target.value })} /></label>
        <label className="field">{t('admin.crons.patternHelp')}<input aria-label={t('admin.crons.pattern')} className="mono" value={d.pattern} onChange={(e) => setD({ ...d, pattern: e.target.value })} /></label>
        <label className="field">{t('admin.crons.timeZone')}<input aria-label={t('admin.crons.timeZone')} list="cron-time-zones" value={d.timezone} onChange={(e) => setD({ ...d, timezone: e.target.value })} /></label>
        <datalist id="cron-time-zones">{ZONES.map((z) => <option key={z} value={z} />)}</datalist>
        <div className="check-row">
          <ToggleSwitch aria-label={t('admin.crons.jobActive')} isSelected={d.active} onChange={(on) => setD({ ...d, active: on })}>{t('admin.crons.active')}</ToggleSwitch>
        </div>
      </div>
      <NextRuns scope={props.scope} pattern={d.pattern} timezone={d.timezone} />
      <label className="field">
        {t('admin.crons.action')}
        <select aria-label={t('admin.crons.jobAction')} value={a.type} onChange={(e) => switchType(e.target.value as CronAction['type'])}>
          <option value="url">{t('admin.crons.httpCall')}</option>
          <option value="sql">{t('admin.crons.sqlStatement')}</option>
        </select>
      </label>
      {a.type === 'url' ? (
        <>
          <div className="hook-url-row">
            <select aria-label={t('admin.crons.jobMethod')} value={a.method} onChange={(e) => setD({ ...d, action: { ...a, method: e.target.value } })}>
              {['POST', 'GET', 'PUT', 'PATCH', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
            </select>
            <input aria-label={t('admin.crons.jobUrl')} placeholder="https://example.com/nightly" // i18n-ignore
              value={a.url} onChange={(e) => setD({ ...d, action: { ...a, url: e.target.value } })} />
          </div>
          <HeadersField key={a.type} label={t('admin.crons.jobHeaders')} className="mono" headers={a.headers ?? {}} onChange={(headers) => setD({ ...d, action: { ...a, headers } })}
            reveal={j ? () => cronsApi.headers(props.scope, j.id) : undefined} />
          <label className="field">{t('admin.crons.body')}<textarea aria-label={t('admin.crons.jobBody')} rows={2} value={a.body ?? ''} onChange={(e) => setD({ ...d, action: { ...a, body: e.target.value || undefined } })} /></label>
        </>
      ) : (
        <>
          <label className="field">
            {t('admin.crons.database')}
            <select aria-label={t('admin.crons.jobDatabase')} value={a.dbAlias} onChange={(e) => setD({ ...d, action: { ...a, dbAlias: e.target.value } })}>
              {props.dbAliases.map((x) => <option key={x}>{x}</option>)}
            </select>
          </label>
          <label className="field">{t('admin.crons.sql')}<textarea aria-label={t('admin.crons.jobSql')} className="mono" rows={3} value={a.sql} onChange={(e) => setD({ ...d, action: { ...a, sql: e.target.value } })} /></label>
        </>
      )}
      <FormMessage kind="error" text={error} />
      <div className="row-actions">
        <Button onClick={() => void save()}>{j ? t('admin.common.save') : t('admin.crons.create')}</Button>
        <Button variant="secondary" onClick={() => props.onDone(false)}>{t('admin.common.cancel')}</Button>
      </div>
    </section>
  );
}
