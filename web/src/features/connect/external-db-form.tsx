/**
 * The external database form: project name, access type, database type, connection fields (or a
 * SQLite file), 'create database if not exists', SSL files and usage, inflection, the raw
 * connection JSON, Test connection ('Connection was successful' / 'Connection Failure:'), Save, Cancel.
 */
import { useRef, useState, type FormEvent } from 'react';
import { dashboardOp } from '../../api/projects';
import { projectMetaApi, type EnvDbDetail } from '../../api/project-meta';
import { toast } from '../../stores/toasts';
import { Button, FormMessage, TextField } from '../../components/form';
import { t } from '../../i18n';
import { OnOff } from '../schema/aria-fields';

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

/** Why a connection JSON cannot be used, or null. */
export function connectionJsonProblem(text: string): string | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return t('schema.connect.jsonInvalid', { message: (e as Error).message });
  }
  const o = v as { client?: unknown; connection?: unknown } | null;
  const isObject = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  return isObject(o) && typeof o!.client === 'string' && o!.client in PORTS && isObject(o!.connection) ? null : t('schema.connect.jsonShape');
}

/** The form with its connection fields taken from a connection JSON (checked by connectionJsonProblem). */
export function formWithJson(f: Form, text: string): Form {
  const v = JSON.parse(text) as { client: Client; connection: Record<string, unknown>; createIfNotExists?: unknown };
  const c = v.connection;
  const str = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');
  const ssl = (typeof c.ssl === 'object' && c.ssl !== null ? c.ssl : {}) as Record<string, unknown>;
  const sslMode = (SSL_MODES as readonly unknown[]).includes(ssl.mode) ? (ssl.mode as Form['sslMode']) : 'No'; // i18n-ignore: the setting's code
  return {
    ...f, client: v.client, host: str(c.host), port: str(c.port) || PORTS[v.client], user: str(c.user), password: str(c.password),
    database: str(c.database), schema: str(c.schema), filename: str(c.filename), createIfNotExists: v.createIfNotExists === true,
    sslMode, key: str(ssl.key), cert: str(ssl.cert), ca: str(ssl.ca),
  };
}

/** The form's heading (and name) for what it does. */
function headingOf(kind: ExternalDbMode['kind']): string {
  switch (kind) {
    case 'create':
      return t('schema.connect.createHeading');
    case 'import':
      return t('schema.connect.importHeading');
    case 'edit':
      return t('schema.connect.editHeading');
    case 'add':
      return t('schema.connect.addHeading');
  }
}

/** An SSL usage in the current language. */
function sslLabel(mode: (typeof SSL_MODES)[number]): string {
  switch (mode) {
    case 'No':
      return t('schema.connect.sslNo');
    case 'Preferred':
      return t('schema.connect.sslPreferred');
    case 'Required':
      return t('schema.connect.sslRequired');
    case 'Required-CA':
      return t('schema.connect.sslRequiredCa');
    case 'Required-IDENTITY':
      return t('schema.connect.sslRequiredIdentity');
  }
}

function FileField(props: { label: string; onLoad: (text: string) => void; loaded: boolean }) {
  return (
    <label className="field">
      <span>{props.loaded ? t('schema.connect.loaded', { label: props.label }) : props.label}</span>
      <input type="file" onChange={async (e) => { const f = e.target.files?.[0]; if (f) props.onLoad(await f.text()); }} />
    </label>
  );
}

/** The form's fields filled from a stored connection (the password stays empty: blank keeps it). */
function formOf(d: EnvDbDetail): Form {
  // Owners and creators, who alone edit, are sent the connection.
  const c = d.connection ?? { hasPassword: false };
  return {
    ...initial,
    client: d.client,
    host: c.host ?? '',
    port: c.port ? String(c.port) : PORTS[d.client],
    user: c.user ?? '',
    database: c.database ?? '',
    schema: c.schema ?? '',
    filename: c.filename ?? '',
    sslMode: (SSL_MODES as readonly string[]).includes(c.ssl?.mode ?? '') ? (c.ssl!.mode as Form['sslMode']) : 'No', // i18n-ignore: the setting's code
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
  /** `dbAlias` names the new database (a project whose default 'db' is missing); else the server picks the next. */
  | { kind: 'add'; projectId: string; env: string; dbAlias?: string };

/** `onDone` gets the id of a project the form made (create, import), so the page can open it. */
export function ExternalDbForm(props: { onDone: (projectId?: string) => void; onCancel: () => void; mode?: ExternalDbMode }) {
  const mode: ExternalDbMode = props.mode ?? { kind: 'create' };
  const [f, setF] = useState<Form>(mode.kind === 'edit' ? formOf(mode.current) : initial);
  const [json, setJson] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // An unreachable host takes the driver's whole connect time-out to answer: the button says it is waiting.
  const [testing, setTesting] = useState(false);
  // A test's answer speaks of the values it was sent: an edit drops it (and one still on its way is not shown).
  const edits = useRef(0);
  const edited = () => {
    edits.current++;
    setMessage(null);
  };
  const set = <K extends keyof Form>(k: K, v: Form[K]) => (setF((x) => ({ ...x, [k]: v })), edited());
  /** The connection to send; throws the reason when the connection JSON cannot be used. */
  const db = () => {
    if (json === null) return connectionOf(f);
    const problem = connectionJsonProblem(json);
    if (problem) throw new Error(problem);
    return JSON.parse(json);
  };
  /** Between the form and the JSON: the JSON's values fill the form, or its problem is shown and the JSON stays. */
  const toggleJson = () => {
    if (json === null) return setJson(JSON.stringify(connectionOf(f), null, 2));
    const problem = connectionJsonProblem(json);
    if (problem) return setMessage({ kind: 'error', text: problem });
    setF((x) => formWithJson(x, json));
    setJson(null);
    setMessage(null);
  };

  const test = async () => {
    if (json !== null) {
      const problem = connectionJsonProblem(json);
      if (problem) return setMessage({ kind: 'error', text: problem });
    }
    const at = edits.current;
    const answer = (m: { kind: 'error' | 'success'; text: string }) => edits.current === at && setMessage(m);
    setMessage(null);
    setTesting(true);
    try {
      // Editing a stored database: the server tests with its stored password when the field is left empty.
      const stored = mode.kind === 'edit' ? { env: mode.env, dbAlias: mode.current.dbAlias } : {};
      await dashboardOp('testConnection', { projectId: mode.kind === 'edit' ? mode.projectId : undefined, args: { db: db(), ...stored } });
      answer({ kind: 'success', text: t('schema.connect.success') });
    } catch (e) {
      answer({ kind: 'error', text: t('schema.connect.failure', { message: (e as Error).message }) });
    } finally {
      setTesting(false);
    }
  };
  const needsTitle = mode.kind === 'create';
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (needsTitle && !f.title.trim()) return setMessage({ kind: 'error', text: t('schema.connect.titleRequired') });
    setBusy(true);
    try {
      let madeId: string | undefined;
      if (mode.kind === 'create') madeId = (await dashboardOp<{ id: string }>('projectCreateByWeb', { args: { title: f.title.trim(), projectType: f.projectType, inflection: f.inflection, db: db() } })).id;
      if (mode.kind === 'import') {
        const made = await projectMetaApi.createFromZip(mode.file, { title: f.title.trim() || undefined, db: db(), inflection: f.inflection });
        madeId = made.id;
        if (made.skipped.length) toast('info', t('schema.connect.importedSkipped', { list: made.skipped.join('; ') }), 10_000);
        if (made.retype.length) toast('info', t('schema.connect.importedRetype', { list: made.retype.join('; ') }), 10_000);
      }
      if (mode.kind === 'edit') {
        // Update & Restart: the server tests the connection before it stores it.
        await projectMetaApi.updateDb(mode.projectId, mode.env, mode.current.dbAlias, db(), f.inflection);
      }
      if (mode.kind === 'add') await projectMetaApi.addDb(mode.projectId, mode.env, db(), { dbAlias: mode.dbAlias, inflection: f.inflection });
      props.onDone(madeId);
    } catch (x) {
      setMessage({ kind: 'error', text: (x as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="connect-form" onSubmit={save} noValidate aria-label={headingOf(mode.kind)}>
      <h2>{headingOf(mode.kind)}</h2>
      {mode.kind === 'edit' ? <p className="muted">{t('schema.connect.editNote', { db: mode.current.dbAlias, env: mode.env })}</p> : null}
      {mode.kind === 'import' ? <p className="muted">{t('schema.connect.importNote', { file: mode.file.name })}</p> : null}
      <div className="connect-grid">
        {mode.kind === 'create' || mode.kind === 'import' ? (
          <TextField label={t('schema.connect.projectName')} name="title" value={f.title} onChange={(v) => set('title', v)} autoFocus placeholder={mode.kind === 'import' ? t('schema.connect.nameInZip') : undefined} />
        ) : null}
        {mode.kind === 'create' ? (
          <label className="field"><span>{t('schema.connect.accessType')}</span>
            <select value={f.projectType} onChange={(e) => set('projectType', e.target.value as Form['projectType'])}><option value="rest">{t('schema.connect.restApis')}</option><option value="graphql">{t('schema.connect.graphqlApis')}</option></select>
          </label>
        ) : null}
        {/* While the JSON is edited it alone holds the connection: the fields would show stale values. */}
        {json === null ? (
          <>
            <label className="field"><span>{t('schema.connect.databaseType')}</span>
              <select aria-label={t('schema.connect.databaseType')} value={f.client} onChange={(e) => { const c = e.target.value as Client; setF((x) => ({ ...x, client: c, port: PORTS[c] })); }}>
                <option value="pg">PostgreSQL</option><option value="mysql">MySQL / MariaDB</option><option value="mssql">SQL Server</option><option value="sqlite" /* i18n-ignore: product names */>SQLite</option>
              </select>
            </label>
            {f.client === 'sqlite' ? (
              <TextField label={t('schema.connect.sqliteFile')} name="filename" value={f.filename} onChange={(v) => set('filename', v)} placeholder={t('schema.connect.fileInDataDir')} />
            ) : (
              <>
                <TextField label={t('schema.connect.host')} name="host" value={f.host} onChange={(v) => set('host', v)} />
                <TextField label={t('schema.connect.port')} name="port" value={f.port} onChange={(v) => set('port', v)} />
                {/* The database's account, never the browser's saved Tablo sign-in (password managers fill a user and password pair). */}
                <TextField label={t('schema.connect.username')} name="user" autoComplete="off" value={f.user} onChange={(v) => set('user', v)} />
                <TextField label={t('schema.connect.password')} name="password" type="password" autoComplete="new-password" value={f.password} onChange={(v) => set('password', v)} />
                <TextField label={t('schema.connect.database')} name="database" value={f.database} onChange={(v) => set('database', v)} />
                {f.client === 'pg' || f.client === 'mssql' ? (
                  <TextField label={t('schema.connect.schema')} name="schema" value={f.schema} onChange={(v) => set('schema', v)} placeholder={f.client === 'pg' ? 'public' : 'dbo'} /* i18n-ignore: schema names */ />
                ) : null}
                <label className="field"><span>{t('schema.connect.sslUsage')}</span>
                  <select value={f.sslMode} onChange={(e) => set('sslMode', e.target.value as Form['sslMode'])}>{SSL_MODES.map((m) => <option key={m} value={m}>{sslLabel(m)}</option>)}</select>
                </label>
                {f.sslMode !== 'No' ? (
                  <>
                    <FileField label={t('schema.connect.clientKey')} loaded={!!f.key} onLoad={(t) => set('key', t)} />
                    <FileField label={t('schema.connect.clientCert')} loaded={!!f.cert} onLoad={(t) => set('cert', t)} />
                    <FileField label={t('schema.connect.serverCa')} loaded={!!f.ca} onLoad={(t) => set('ca', t)} />
                  </>
                ) : null}
              </>
            )}
          </>
        ) : null}
        <label className="field"><span>{t('schema.connect.names')}</span>
          <select value={f.inflection} onChange={(e) => set('inflection', e.target.value as Form['inflection'])}><option value="camelize">{t('schema.connect.camelize')}</option><option value="none">{t('schema.connect.none')}</option></select>
        </label>
        {json === null ? <OnOff isSelected={f.createIfNotExists} onChange={(on) => set('createIfNotExists', on)}>{t('schema.connect.createIfNotExists')}</OnOff> : null}
      </div>
      {json !== null ? (
        <label className="field"><span>{t('schema.connect.json')}</span>
          <textarea className="json-input" rows={8} value={json} onChange={(e) => (setJson(e.target.value), edited())} aria-label={t('schema.connect.json')} />
        </label>
      ) : null}
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      <div className="inline-actions">
        <Button variant="ghost" onClick={toggleJson}>{json === null ? t('schema.connect.editJson') : t('schema.connect.useForm')}</Button>
        <Button variant="secondary" onClick={test} disabled={testing}>{testing ? t('schema.connect.testing') : t('schema.connect.test')}</Button>
        <Button variant="secondary" onClick={props.onCancel}>{t('schema.connect.cancel')}</Button>
        <Button type="submit" disabled={busy}>{busy ? t('schema.connect.saving') : mode.kind === 'edit' ? t('schema.connect.updateRestart') : t('schema.connect.save')}</Button>
      </div>
    </form>
  );
}
