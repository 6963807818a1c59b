/**
 * The projects list (/projects): search, refresh, New Project (embedded SQLite), and per project
 * stop, start, restart and delete (through the confirm dialog). Empty state per the spec.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { Button, FormMessage, TextField } from '../../components/form';
import { ConfirmDialog } from '../../components/overlays';
import { ExternalDbForm } from '../../features/connect/external-db-form';
import { projectMetaApi } from '../../api/project-meta';
import { useRef } from 'react';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { mayCreateProjects } from '../../stores/session';
import { useSignals } from '../../stores/signals';

/** /projects: the list with search, refresh, New Project, connect, and per-project actions. */
export function ProjectsPage() {
  useSignals();
  // Creating and connecting are for the Super Admin and users they allow; others only see theirs.
  const mayCreate = mayCreateProjects.value;
  const navigate = useNavigate();
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [deleting, setDeleting] = useState<ProjectSummary | null>(null);
  const [clearing, setClearing] = useState<ProjectSummary | null>(null);
  /** A metadata zip picked for "Import project", and where its project's database is (embedded or connected). */
  const [importing, setImporting] = useState<{ file: File; connect: boolean } | null>(null);
  const zipInput = useRef<HTMLInputElement>(null);

  const load = async () => {
    setError(null);
    try {
      setProjects(await projectsApi.list());
    } catch (e) {
      setError((e as Error).message);
      setProjects([]);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const shown = useMemo(
    () => (projects ?? []).filter((p) => p.title.toLowerCase().includes(search.trim().toLowerCase())),
    [projects, search],
  );

  const act = async (label: string, run: () => Promise<unknown>) => {
    await track(label, run()).catch(() => {});
    await load();
  };

  return (
    <div className="page">
      <div className="page-head">
        <h1>Projects</h1>
        <div className="page-actions">
          <input className="search" placeholder="Search projects" aria-label="Search projects" value={search} onChange={(e) => setSearch(e.target.value)} />
          <Button variant="secondary" onClick={load} title="Refresh">
            ↻ Refresh
          </Button>
          {mayCreate ? <Button variant="secondary" onClick={() => zipInput.current?.click()}>Import project</Button> : null}
          <input
            ref={zipInput}
            type="file"
            accept=".zip,application/zip"
            hidden
            aria-label="Project metadata zip"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) setImporting({ file, connect: false });
            }}
          />
          {mayCreate ? <Button variant="secondary" onClick={() => setConnecting(true)}>Connect to an external database</Button> : null}
          {mayCreate ? <Button onClick={() => setCreating(true)}>+ New Project</Button> : null}
        </div>
      </div>
      {connecting ? (
        <ExternalDbForm
          onDone={(id) => (setConnecting(false), toast('success', 'Project created'), id ? navigate(`/nc/${encodeURIComponent(id)}`) : load())}
          onCancel={() => setConnecting(false)}
        />
      ) : null}
      {importing && importing.connect ? (
        <ExternalDbForm
          mode={{ kind: 'import', file: importing.file }}
          onDone={(id) => (setImporting(null), toast('success', 'Project imported'), id ? navigate(`/nc/${encodeURIComponent(id)}`) : load())}
          onCancel={() => setImporting(null)}
        />
      ) : null}
      {importing && !importing.connect ? (
        <ConfirmDialog
          heading={`Import a project from ${importing.file.name}`}
          submitLabel="New embedded database"
          onCancel={() => setImporting(null)}
          onSubmit={() => {
            const file = importing.file;
            setImporting(null);
            void act('Imported a project', () => projectMetaApi.createFromZip(file, {}));
          }}
        >
          <p className="muted">The zip holds the metadata, not the data or the connection. Put the project on a new embedded database, or connect the database it describes.</p>
          <Button variant="secondary" onClick={() => setImporting({ file: importing.file, connect: true })}>Connect to a database…</Button>
        </ConfirmDialog>
      ) : null}
      <FormMessage kind="error" text={error} />
      {creating ? <NewProjectForm onDone={(id) => (setCreating(false), navigate(`/nc/${encodeURIComponent(id)}`))} onCancel={() => setCreating(false)} /> : null}
      {projects === null ? (
        <p className="muted">Loading projects…</p>
      ) : projects.length === 0 ? (
        <div className="empty-state">
          <div className="empty-icon">▦</div>
          {mayCreate ? (
            <>
              <h2>Get started by creating a new project</h2>
              <p className="muted">A project holds a new embedded database or connects to one you already have.</p>
              <Button onClick={() => setCreating(true)}>+ New Project</Button>
            </>
          ) : (
            <>
              <h2>No projects yet</h2>
              <p className="muted">Projects you are invited to appear here. Creating projects is for the Super Admin and the users they allow.</p>
            </>
          )}
        </div>
      ) : (
        <table className="list-table">
          <thead>
            <tr>
              <th>Title</th>
              <th>Status</th>
              <th>API</th>
              <th>Environment</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  No project matches '{search.trim()}'
                </td>
              </tr>
            ) : null}
            {shown.map((p) => (
              <tr key={p.id}>
                <td className="project-title">
                  {p.status === 'started' ? <Link to={`/nc/${p.id}`}>{p.title}</Link> : p.title}
                </td>
                <td>
                  <span className={`badge badge-${p.status}`}>{p.status}</span>
                </td>
                <td>{p.projectType === 'graphql' ? 'GraphQL' : 'REST'}</td>
                <td>{p.workingEnv}</td>
                <td>
                  <div className="row-actions">
                  {p.status === 'started' ? (
                    <Button variant="ghost" onClick={() => act(`Stopped ${p.title}`, () => projectsApi.stop(p.id))}>Stop</Button>
                  ) : (
                    <Button variant="ghost" onClick={() => act(`Started ${p.title}`, () => projectsApi.start(p.id))}>Start</Button>
                  )}
                  <Button variant="ghost" onClick={() => act(`Restarted ${p.title}`, () => projectsApi.restart(p.id))}>Restart</Button>
                  <Button variant="ghost" onClick={() => act(`Exported ${p.title}`, () => projectMetaApi.export(p.id, p.title))}>Export</Button>
                  <Button variant="ghost" onClick={() => setClearing(p)} disabled={p.status !== 'started'}>Clear metadata</Button>
                  <Button variant="ghost" onClick={() => setDeleting(p)}>Delete</Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {clearing ? (
        <ConfirmDialog
          heading={`Clear all metadata of '${clearing.title}'?`}
          onCancel={() => setClearing(null)}
          onSubmit={() => {
            const p = clearing;
            setClearing(null);
            void act(`Cleared the metadata of ${p.title}`, () => projectMetaApi.reset(p.id));
          }}
        >
          <p className="muted">Display names, column types, virtual columns, views, rules and visibility are removed and the schema is read afresh. The data is not touched.</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          heading={`Delete project '${deleting.title}'?`}
          onCancel={() => setDeleting(null)}
          onSubmit={() => {
            const p = deleting;
            setDeleting(null);
            void act(`Deleted ${p.title}`, () => projectsApi.remove(p.id));
          }}
        >
          <p className="muted">Its metadata is removed. A connected external database is never touched.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** The name of a new embedded project; `onDone` gets its id (the page opens it). */
function NewProjectForm(props: { onDone: (id: string) => void; onCancel: () => void }) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return setError('Project name is required');
    setBusy(true);
    try {
      const made = await projectsApi.createEmbedded(title.trim());
      toast('success', `Project '${title.trim()}' created`);
      props.onDone(made.id);
    } catch (x) {
      setError((x as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <TextField label="Project name" name="title" value={title} onChange={setTitle} error={error} autoFocus />
      <div className="inline-actions">
        <Button variant="secondary" onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create'}</Button>
      </div>
    </form>
  );
}
