/**
 * The Project Metadata tab: export the metadata to a zip, import one (which restarts the project),
 * clear it (with the confirm dialog), and the project's connections: each environment with its
 * databases (edit with Update & Restart, remove), add a database or an environment, remove one.
 */
import { useEffect, useRef, useState } from 'react';
import { projectMetaApi, type EnvDetails } from '../../api/project-meta';
import { Button, FormMessage, TextField } from '../../components/form';
import { ConfirmDialog } from '../../components/overlays';
import { ExternalDbForm, type ExternalDbMode } from '../connect/external-db-form';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { schemaGeneration } from '../../stores/schema-ui';
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';
import { connectionLabel } from './connection-label';

/** A step waiting for confirmation. */
type Confirm = { kind: 'reset' } | { kind: 'import'; file: File } | { kind: 'removeDb'; env: string; dbAlias: string } | { kind: 'removeEnv'; env: string };

export function ProjectMetaPanel(props: { projectId: string; title: string }) {
  const [envs, setEnvs] = useState<EnvDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [skipped, setSkipped] = useState<string[] | null>(null);
  /** Hooks and jobs whose credential header values the zip did not hold: to type again. */
  const [retype, setRetype] = useState<string[]>([]);
  const [form, setForm] = useState<ExternalDbMode | null>(null);
  const [newEnv, setNewEnv] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const latest = useLatest();
  const load = () =>
    latest(
      projectMetaApi.envs(props.projectId),
      (e) => (setEnvs(e), setError(null)),
      (e) => setError(e.message),
    );
  useEffect(() => {
    void load();
  }, [props.projectId]);

  /** Runs a metadata operation: `op` names it (while it runs, and when it fails: the toast says why), `done` says it succeeded. */
  const run = async (op: string, done: string, work: () => Promise<unknown>) => {
    await track(op, work(), done).catch(() => {});
    await load();
    // The tree shows the environments and databases: it reads them again.
    schemaGeneration.value++;
  };

  const submit = () => {
    const c = confirm;
    setConfirm(null);
    if (!c) return;
    if (c.kind === 'reset') void run(t('schema.meta.clearOp', { title: props.title }), t('schema.meta.cleared', { title: props.title }), () => projectMetaApi.reset(props.projectId));
    if (c.kind === 'import')
      void run(t('schema.meta.importOp', { title: props.title }), t('schema.meta.imported', { title: props.title }), async () => {
        const r = await projectMetaApi.import(props.projectId, c.file);
        setSkipped(r.skipped);
        setRetype(r.retype);
      });
    if (c.kind === 'removeDb') void run(t('schema.meta.removeDbOp', { db: c.dbAlias, env: c.env }), t('schema.meta.removedDb', { db: c.dbAlias, env: c.env }), () => projectMetaApi.removeDb(props.projectId, c.env, c.dbAlias));
    if (c.kind === 'removeEnv') void run(t('schema.meta.removeEnvOp', { env: c.env }), t('schema.meta.removedEnv', { env: c.env }), () => projectMetaApi.removeEnv(props.projectId, c.env));
  };

  return (
    <div className="panel meta-panel" role="region" aria-label={t('schema.meta.heading')}>
      <h2>{t('schema.meta.heading')}</h2>
      <p className="muted">{t('schema.meta.intro')}</p>
      <div className="inline-actions">
        <Button onClick={() => void run(t('schema.meta.exportOp', { title: props.title }), t('schema.meta.exported', { title: props.title }), () => projectMetaApi.export(props.projectId, props.title))}>{t('schema.meta.export')}</Button>
        <Button variant="secondary" onClick={() => fileInput.current?.click()}>{t('schema.meta.import')}</Button>
        <Button variant="danger" onClick={() => setConfirm({ kind: 'reset' })}>{t('schema.meta.clear')}</Button>
        <input
          ref={fileInput}
          type="file"
          accept=".zip,application/zip"
          hidden
          aria-label={t('schema.meta.zip')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) setConfirm({ kind: 'import', file });
          }}
        />
      </div>
      {skipped ? (
        <div className="form-message" role="status">
          {skipped.length === 0 && retype.length === 0 ? t('schema.meta.allApplied') : null}
          {skipped.length ? (
            <>
              <strong>{t('schema.meta.skipped')}</strong>
              <ul className="skipped-list">{skipped.map((s) => <li key={s}>{s}</li>)}</ul>
            </>
          ) : null}
          {retype.length ? (
            <>
              <strong>{t('schema.meta.retype')}</strong>
              <ul className="skipped-list" aria-label={t('schema.meta.retype')}>{retype.map((s) => <li key={s}>{s}</li>)}</ul>
            </>
          ) : null}
        </div>
      ) : null}

      <h3>{t('schema.meta.connections')}</h3>
      <FormMessage kind="error" text={error} />
      {envs
        ? Object.entries(envs.envs).map(([env, e]) => (
            <section key={env} className="env-block" aria-label={t('schema.meta.environment', { env })}>
              <div className="env-head">
                <strong>{env}</strong> {e.active ? <span className="badge badge-started">{t('schema.tree.activeEnv')}</span> : null}
                <span className="spacer" />
                <Button variant="ghost" onClick={() => setForm({ kind: 'add', projectId: props.projectId, env })}>{t('schema.meta.addDatabase')}</Button>
                {!e.active ? <Button variant="ghost" onClick={() => setConfirm({ kind: 'removeEnv', env })}>{t('schema.meta.removeEnvironment')}</Button> : null}
              </div>
              <table className="list-table">
                <tbody>
                  {e.dbs.map((d) => (
                    <tr key={d.dbAlias}>
                      <td>{d.dbAlias}</td>
                      <td>{connectionLabel(d)}</td>
                      <td>
                        <div className="row-actions">
                          {!d.isXcdb && d.connection ? <Button variant="ghost" onClick={() => setForm({ kind: 'edit', projectId: props.projectId, env, current: d })}>{t('schema.meta.edit')}</Button> : null}
                          <Button variant="ghost" onClick={() => setConfirm({ kind: 'removeDb', env, dbAlias: d.dbAlias })}>{t('schema.meta.remove')}</Button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))
        : null}
      {newEnv === null ? (
        <Button variant="secondary" onClick={() => setNewEnv('')}>{t('schema.meta.addEnvironment')}</Button>
      ) : (
        <div className="inline-form">
          <TextField label={t('schema.meta.environmentName')} name="env" value={newEnv} onChange={setNewEnv} autoFocus />
          <div className="inline-actions">
            <Button variant="secondary" onClick={() => setNewEnv(null)}>{t('schema.meta.cancel')}</Button>
            <Button onClick={() => newEnv.trim() && (setForm({ kind: 'add', projectId: props.projectId, env: newEnv.trim() }), setNewEnv(null))}>{t('schema.meta.next')}</Button>
          </div>
        </div>
      )}
      {form ? (
        <ExternalDbForm
          mode={form}
          onCancel={() => setForm(null)}
          onDone={() => {
            setForm(null);
            toast('success', form.kind === 'edit' ? t('schema.meta.connectionUpdated') : t('schema.meta.databaseAdded'));
            void load();
            schemaGeneration.value++;
          }}
        />
      ) : null}
      {confirm ? (
        <ConfirmDialog heading={headingOf(props.title, confirm)} onCancel={() => setConfirm(null)} onSubmit={submit} submitLabel={confirm.kind === 'import' ? t('schema.meta.importAndRestart') : t('schema.meta.submit')}>
          <p className="muted">{noteOf(confirm.kind)}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** The question of a confirm step. */
function headingOf(title: string, c: Confirm): string {
  switch (c.kind) {
    case 'reset':
      return t('schema.meta.resetHeading', { title });
    case 'import':
      return t('schema.meta.importHeading', { file: c.file.name, title });
    case 'removeDb':
      return t('schema.meta.removeDbHeading', { db: c.dbAlias, env: c.env });
    case 'removeEnv':
      return t('schema.meta.removeEnvHeading', { env: c.env });
  }
}

/** What a confirm step changes (and what it leaves alone). */
function noteOf(kind: Confirm['kind']): string {
  switch (kind) {
    case 'reset':
      return t('schema.meta.resetNote');
    case 'import':
      return t('schema.meta.importNote');
    case 'removeDb':
      return t('schema.meta.removeDbNote');
    case 'removeEnv':
      return t('schema.meta.removeEnvNote');
  }
}
