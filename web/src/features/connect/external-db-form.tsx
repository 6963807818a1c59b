/**
 * The external database form: project name, access type, database type, connection fields (or a
 * SQLite file), 'create database if not exists', SSL files and usage, inflection, the raw
 * connection JSON, Test connection ('Connection was successful' / 'Connection Failure:'), Save, Cancel.
 */
import { useState, type FormEvent } from 'react';
import { dashboardOp } from '../../api/projects';
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

function FileField(props: { label: string; onLoad: (text: string) => void; loaded: boolean }) {
  return (
    <label className="field">
      <span>{props.label}{props.loaded ? ' ✓' : ''}</span>
      <input type="file" onChange={async (e) => { const f = e.target.files?.[0]; if (f) props.onLoad(await f.text()); }} />
    </label>
  );
}

export function ExternalDbForm(props: { onDone: () => void; onCancel: () => void }) {
  const [f, setF] = useState<Form>(initial);
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
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!f.title.trim()) return setMessage({ kind: 'error', text: 'Project name is required' });
    setBusy(true);
    try {
      await dashboardOp('projectCreateByWeb', { args: { title: f.title.trim(), projectType: f.projectType, inflection: f.inflection, db: db() } });
      props.onDone();
    } catch (x) {
      setMessage({ kind: 'error', text: (x as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="connect-form" onSubmit={save} noValidate aria-label="Connect to an external database">
      <h2>Connect to an external database</h2>
      <div className="connect-grid">
        <TextField label="Project name" name="title" value={f.title} onChange={(v) => set('title', v)} autoFocus />
        <label className="field"><span>Access type</span>
          <select value={f.projectType} onChange={(e) => set('projectType', e.target.value as Form['projectType'])}><option value="rest">REST APIs</option><option value="graphql">GraphQL APIs</option></select>
        </label>
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
        <Button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save'}</Button>
      </div>
    </form>
  );
}
