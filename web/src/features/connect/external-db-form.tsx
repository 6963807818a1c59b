/**
 * The external database form: project name, access type, database type, connection fields (or a
 * SQLite file), 'create database if not exists', SSL files and usage, inflection, the raw
 * connection JSON, Test connection ('Connection was successful' / 'Connection Failure:'), Save, Cancel.
 */
import { useState, type FormEvent } from 'react';
import { dashboardOp } from '../../api/projects';
import { projectMetaApi, type EnvDbDetail } from '../../api/project-meta';
import { toast } from '../../stores/toasts';
import { Button, FormMessage, TextField } from '../../components/form';

type Client = 'pg' | 'mysql' | 'mssql' | 'sqlite';
const PORTS: Record<Client, string> = { pg: '5432', mysql: '3306', mssql: '1433', sqlite: '' };
const SSL_MODES = ['No', 'Preferred', 'Required', 'Required-CA', 'Required-IDENTITY'] as const;

interface Form {
  title: string;
  projectType: 'rest' | 'graphql';
  client: Client;
  host: string;
  port: string;
  user: string;
  password: string;
  database: string;
  /** PostgreSQL / SQL Server schema to open (empty: public / dbo). */
  schema: string;
  filename: string;
  createIfNotExists: boolean;
  sslMode: (typeof SSL_MODES)[number];
  key: string;
  cert: string;
  ca: string;
  inflection: 'camelize' | 'none';
}

const initial: Form = { title: '', projectType: 'rest', client: 'pg', host: 'localhost', port: '5432', user: '', password: '', database: '', schema: '', filename: '', createIfNotExists: false, sslMode: 'No', key: '', cert: '', ca: '', inflection: 'camelize' };

/** The `db` argument of projectCreateByWeb / testConnection. */
export function connectionOf(f: Form) {
  if (f.client === 'sqlite') return { client: f.client, connection: { filename: f.filename }, createIfNotExists: f.createIfNotExists };
  const ssl = f.sslMode === 'No' ? undefined : { mode: f.sslMode, key: f.key || undefined, cert: f.cert || undefined, ca: f.ca || undefined };
  const schema = (f.client === 'pg' || f.client === 'mssql') && f.schema.trim() ? f.schema.trim() : undefined;
  return { client: f.client, connection: { host: f.host, port: Number(f.port) || undefined, user: f.user, password: f.password, database: f.database, schema, ssl }, createIfNotExists: f.createIfNotExists };
}

const HEADINGS: Record<ExternalDbMode['kind'], string> = {
  create: 'Connect to an external database',
  import: 'Import project',
  edit: 'Edit connection',
  add: 'Add a database',
};

function FileField(props: { label: string; onLoad: (text: string) => void; loaded: boolean }) {
  return (
    <label className="field">
      <span>{props.label}{props.loaded ? ' ✓' : ''}</span>
      <input type="file" onChange={async (e) => { const f = e.target.files?.[0]; if (f) props.onLoad(await f.text()); }} />
    </label>
  );
}

/** The form's fields filled from a stored connection (the password stays empty: blank keeps it). */
function formOf(d: EnvDbDetail): Form {
  const c = d.connection;
  return {
    ...initial,
    client: d.client,
    host: c.host ?? '',
    port: c.port ? String(c.port) : PORTS[d.client],
    user: c.user ?? '',
    database: c.database ?? '',
    schema: c.schema ?? '',
    filename: c.filename ?? '',
    sslMode: (SSL_MODES as readonly string[]).includes(c.ssl?.mode ?? '') ? (c.ssl!.mode as Form['sslMode']) : 'No',
    inflection: d.inflection.table === 'none' ? 'none' : 'camelize',
  };
}

/**
 * What the form does on Save: create a project (default), create one from a metadata zip, edit the
 * connection of one database of an environment ('Update & Restart'), or add a database to an environment.
 */
export type ExternalDbMode =
  | { kind: 'create' }
  | { kind: 'import'; file: File }
  | { kind: 'edit'; projectId: string; env: string; current: EnvDbDetail }
  | { kind: 'add'; projectId: string; env: string };

/** `onDone` gets the id of a project the form made (create, import), so the page can open it. */
export function ExternalDbForm(props: { onDone: (projectId?: string) => void; onCancel: () => void; mode?: ExternalDbMode }) {
  const mode: ExternalDbMode = props.mode ?? { kind: 'create' };
  const [f, setF] = useState<Form>(mode.kind === 'edit' ? formOf(mode.current) : initial);
  const [json, setJson] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setF((x) => ({ ...x, [k]: v }));
  const db = () => (json !== null ? JSON.parse(json) : connectionOf(f));

  const test = async () => {
    try {
      await dashboardOp('testConnection', { args: { db: db() } });
      setMessage({ kind: 'success', text: 'Connection was successful' });
    } catch (e) {
      setMessage({ kind: 'error', text: `Connection Failure: ${(e as Error).message}` });
    }
  };
  const needsTitle = mode.kind === 'create';
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (needsTitle && !f.title.trim()) return setMessage({ kind: 'error', text: 'Project name is required' });
    setBusy(true);
    try {
      let madeId: string | undefined;
      if (mode.kind === 'create') madeId = (await dashboardOp<{ id: string }>('projectCreateByWeb', { args: { title: f.title.trim(), projectType: f.projectType, inflection: f.inflection, db: db() } })).id;
      if (mode.kind === 'import') {
        const made = await projectMetaApi.createFromZip(mode.file, { title: f.title.trim() || undefined, db: db() });
        madeId = made.id;
        if (made.skipped.length) toast('info', `Imported; skipped: ${made.skipped.join('; ')}`);
      }
      if (mode.kind === 'edit') {
        // Update & Restart: the server tests the connection before it stores it.
        await projectMetaApi.updateDb(mode.projectId, mode.env, mode.current.dbAlias, db());
      }
      if (mode.kind === 'add') await projectMetaApi.addDb(mode.projectId, mode.env, db());
      props.onDone(madeId);
    } catch (x) {
      setMessage({ kind: 'error', text: (x as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="connect-form" onSubmit={save} noValidate aria-label={HEADINGS[mode.kind]}>
      <h2>{HEADINGS[mode.kind]}</h2>
      {mode.kind === 'edit' ? <p className="muted">Database '{mode.current.dbAlias}' of environment '{mode.env}'. Leave the password empty to keep the stored one.</p> : null}
      {mode.kind === 'import' ? <p className="muted">Metadata from {mode.file.name}; the zip holds no connection: say where the database is.</p> : null}
      <div className="connect-grid">
        {mode.kind === 'create' || mode.kind === 'import' ? (
          <TextField label="Project name" name="title" value={f.title} onChange={(v) => set('title', v)} autoFocus placeholder={mode.kind === 'import' ? 'the name in the zip' : undefined} />
        ) : null}
        {mode.kind === 'create' ? (
          <label className="field"><span>Access type</span>
            <select value={f.projectType} onChange={(e) => set('projectType', e.target.value as Form['projectType'])}><option value="rest">REST APIs</option><option value="graphql">GraphQL APIs</option></select>
          </label>
        ) : null}
        <label className="field"><span>Database type</span>
          <select aria-label="Database type" value={f.client} onChange={(e) => { const c = e.target.value as Client; setF((x) => ({ ...x, client: c, port: PORTS[c] })); }}>
            <option value="pg">PostgreSQL</option><option value="mysql">MySQL / MariaDB</option><option value="mssql">SQL Server</option><option value="sqlite">SQLite</option>
          </select>
        </label>
        {f.client === 'sqlite' ? (
          <TextField label="SQLite file" name="filename" value={f.filename} onChange={(v) => set('filename', v)} placeholder="file in the data directory" />
        ) : (
          <>
            <TextField label="Host" name="host" value={f.host} onChange={(v) => set('host', v)} />
            <TextField label="Port" name="port" value={f.port} onChange={(v) => set('port', v)} />
            <TextField label="Username" name="user" value={f.user} onChange={(v) => set('user', v)} />
            <TextField label="Password" name="password" type="password" value={f.password} onChange={(v) => set('password', v)} />
            <TextField label="Database" name="database" value={f.database} onChange={(v) => set('database', v)} />
            {f.client === 'pg' || f.client === 'mssql' ? (
              <TextField label="Schema" name="schema" value={f.schema} onChange={(v) => set('schema', v)} placeholder={f.client === 'pg' ? 'public' : 'dbo'} />
            ) : null}
            <label className="field"><span>SSL usage</span>
              <select value={f.sslMode} onChange={(e) => set('sslMode', e.target.value as Form['sslMode'])}>{SSL_MODES.map((m) => <option key={m}>{m}</option>)}</select>
            </label>
            {f.sslMode !== 'No' ? (
              <>
                <FileField label="Client key" loaded={!!f.key} onLoad={(t) => set('key', t)} />
                <FileField label="Client cert" loaded={!!f.cert} onLoad={(t) => set('cert', t)} />
                <FileField label="Server CA" loaded={!!f.ca} onLoad={(t) => set('ca', t)} />
              </>
            ) : null}
          </>
        )}
        <label className="field"><span>Table and column names</span>
          <select value={f.inflection} onChange={(e) => set('inflection', e.target.value as Form['inflection'])}><option value="camelize">camelize</option><option value="none">none</option></select>
        </label>
        <label className="check"><input type="checkbox" checked={f.createIfNotExists} onChange={(e) => set('createIfNotExists', e.target.checked)} /> Create database if not exists</label>
      </div>
      {json !== null ? (
        <label className="field"><span>Connection JSON</span>
          <textarea className="json-input" rows={8} value={json} onChange={(e) => setJson(e.target.value)} aria-label="Connection JSON" />
        </label>
      ) : null}
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      <div className="inline-actions">
        <Button variant="ghost" onClick={() => setJson(json === null ? JSON.stringify(connectionOf(f), null, 2) : null)}>{json === null ? 'Edit connection JSON' : 'Use the form'}</Button>
        <Button variant="secondary" onClick={test}>Test Database Connection</Button>
        <Button variant="secondary" onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" disabled={busy}>{busy ? 'Saving…' : mode.kind === 'edit' ? 'Update & Restart' : 'Save'}</Button>
      </div>
    </form>
  );
}
