/**
 * The Project Metadata tab: export the metadata to a zip, import one (which restarts the project),
 * clear it (with the confirm dialog), and the project's connections: each environment with its
 * databases (edit with Update & Restart, remove), add a database or an environment, remove one.
 */
import { useEffect, useRef, useState } from 'react';
import { projectMetaApi, type EnvDetails, type EnvDbDetail } from '../../api/project-meta';
import { Button, FormMessage, TextField } from '../../components/form';
import { ConfirmDialog } from '../../components/overlays';
import { ExternalDbForm, type ExternalDbMode } from '../connect/external-db-form';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { schemaGeneration } from '../../stores/schema-ui';

const CLIENTS: Record<string, string> = { pg: 'PostgreSQL', mysql: 'MySQL / MariaDB', mssql: 'SQL Server', sqlite: 'SQLite' };

/** Where a database lives, in words (never the password). */
export function connectionLabel(d: EnvDbDetail): string {
  if (d.isXcdb) return 'embedded SQLite database';
  const c = d.connection;
  if (d.client === 'sqlite') return `SQLite file ${c.filename ?? ''}`;
  return `${CLIENTS[d.client] ?? d.client} ${c.user ? `${c.user}@` : ''}${c.host ?? ''}${c.port ? `:${c.port}` : ''}/${c.database ?? ''}`;
}

export function ProjectMetaPanel(props: { projectId: string; title: string }) {
  const [envs, setEnvs] = useState<EnvDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<null | { kind: 'reset' } | { kind: 'import'; file: File } | { kind: 'removeDb'; env: string; dbAlias: string } | { kind: 'removeEnv'; env: string }>(null);
  const [skipped, setSkipped] = useState<string[] | null>(null);
  const [form, setForm] = useState<ExternalDbMode | null>(null);
  const [newEnv, setNewEnv] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const load = () =>
    projectMetaApi.envs(props.projectId).then(
      (e) => (setEnvs(e), setError(null)),
      (e) => setError((e as Error).message),
    );
  useEffect(() => {
    void load();
  }, [props.projectId]);

  const run = async (label: string, work: () => Promise<unknown>) => {
    try {
      await track(label, work());
      toast('success', label);
    } catch (e) {
      toast('error', (e as Error).message);
    }
    await load();
    // The tree shows the environments and databases: it reads them again.
    schemaGeneration.value++;
  };

  const submit = () => {
    const c = confirm;
    setConfirm(null);
    if (!c) return;
    if (c.kind === 'reset') void run(`Cleared the metadata of ${props.title}`, () => projectMetaApi.reset(props.projectId));
    if (c.kind === 'import')
      void run(`Imported the metadata of ${props.title}`, async () => {
        const r = await projectMetaApi.import(props.projectId, c.file);
        setSkipped(r.skipped);
      });
    if (c.kind === 'removeDb') void run(`Removed database ${c.dbAlias} of ${c.env}`, () => projectMetaApi.removeDb(props.projectId, c.env, c.dbAlias));
    if (c.kind === 'removeEnv') void run(`Removed environment ${c.env}`, () => projectMetaApi.removeEnv(props.projectId, c.env));
  };

  return (
    <div className="panel meta-panel" role="region" aria-label="Project Metadata">
      <h2>Project Metadata</h2>
      <p className="muted">
        Display names, column types and options, virtual columns, views, rules, visibility and the list of schema changes. A zip never holds a connection, a password
        or a token.
      </p>
      <div className="inline-actions">
        <Button onClick={() => void run(`Exported the metadata of ${props.title}`, () => projectMetaApi.export(props.projectId, props.title))}>Export to zip</Button>
        <Button variant="secondary" onClick={() => fileInput.current?.click()}>Import zip</Button>
        <Button variant="danger" onClick={() => setConfirm({ kind: 'reset' })}>Clear metadata</Button>
        <input
          ref={fileInput}
          type="file"
          accept=".zip,application/zip"
          hidden
          aria-label="Metadata zip"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) setConfirm({ kind: 'import', file });
          }}
        />
      </div>
      {skipped ? (
        <div className="form-message" role="status">
          {skipped.length === 0 ? 'Everything in the zip was applied.' : (
            <>
              <strong>Skipped (not in this database):</strong>
              <ul className="skipped-list">{skipped.map((s) => <li key={s}>{s}</li>)}</ul>
            </>
          )}
        </div>
      ) : null}

      <h3>Connections</h3>
      <FormMessage kind="error" text={error} />
      {envs
        ? Object.entries(envs.envs).map(([env, e]) => (
            <section key={env} className="env-block" aria-label={`Environment ${env}`}>
              <div className="env-head">
                <strong>{env}</strong> {e.active ? <span className="badge badge-started">Active Env</span> : null}
                <span className="spacer" />
                <Button variant="ghost" onClick={() => setForm({ kind: 'add', projectId: props.projectId, env })}>Add database</Button>
                {!e.active ? <Button variant="ghost" onClick={() => setConfirm({ kind: 'removeEnv', env })}>Remove environment</Button> : null}
              </div>
              <table className="list-table">
                <tbody>
                  {e.dbs.map((d) => (
                    <tr key={d.dbAlias}>
                      <td>{d.dbAlias}</td>
                      <td>{connectionLabel(d)}</td>
                      <td>
                        <div className="row-actions">
                          {!d.isXcdb ? <Button variant="ghost" onClick={() => setForm({ kind: 'edit', projectId: props.projectId, env, current: d })}>Edit</Button> : null}
                          <Button variant="ghost" onClick={() => setConfirm({ kind: 'removeDb', env, dbAlias: d.dbAlias })}>Remove</Button>
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
        <Button variant="secondary" onClick={() => setNewEnv('')}>Add environment</Button>
      ) : (
        <div className="inline-form">
          <TextField label="Environment name" name="env" value={newEnv} onChange={setNewEnv} autoFocus />
          <div className="inline-actions">
            <Button variant="secondary" onClick={() => setNewEnv(null)}>Cancel</Button>
            <Button onClick={() => newEnv.trim() && (setForm({ kind: 'add', projectId: props.projectId, env: newEnv.trim() }), setNewEnv(null))}>Next: its database</Button>
          </div>
        </div>
      )}
      {form ? (
        <ExternalDbForm
          mode={form}
          onCancel={() => setForm(null)}
          onDone={() => {
            setForm(null);
            toast('success', form.kind === 'edit' ? 'Connection updated, project restarted' : 'Database added');
            void load();
            schemaGeneration.value++;
          }}
        />
      ) : null}
      {confirm ? (
        <ConfirmDialog heading={HEADINGS[confirm.kind](props.title, confirm)} onCancel={() => setConfirm(null)} onSubmit={submit} submitLabel={confirm.kind === 'import' ? 'Import and restart' : 'Submit'}>
          <p className="muted">{NOTES[confirm.kind]}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

const HEADINGS: Record<string, (title: string, c: any) => string> = {
  reset: (title) => `Clear all metadata of '${title}'?`,
  import: (title, c) => `Import ${c.file.name} into '${title}'?`,
  removeDb: (_t, c) => `Remove database '${c.dbAlias}' from environment '${c.env}'?`,
  removeEnv: (_t, c) => `Remove environment '${c.env}' and its databases?`,
};
const NOTES: Record<string, string> = {
  reset: 'Display names, column types, virtual columns, views, rules and visibility are removed and the schema is read afresh. The data is not touched.',
  import: "The zip's metadata replaces this project's and the project restarts. Entries naming tables or columns this database lacks are skipped.",
  removeDb: 'Only the connection is removed; the database itself is never touched.',
  removeEnv: 'Only the connections are removed; the databases themselves are never touched.',
};
