/**
 * The projects list (/projects): search, refresh, New Project (embedded SQLite), and per project
 * stop, start, restart, rename and delete (through the confirm dialog). Empty state per the spec.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { Button, FormMessage } from '../../components/form';
import { NewProjectForm } from './new-project-form';
import { RenameProjectDialog } from './rename-project-dialog';
import { ConfirmDialog } from '../../components/overlays';
import { ExternalDbForm } from '../../features/connect/external-db-form';
import { projectMetaApi } from '../../api/project-meta';
import { useRef } from 'react';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { isSuperAdmin, mayCreateProjects } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';

/** A project's status in the current language. */
const statusText = (status: string) => (status === 'started' ? t('admin.projects.statusStarted') : status === 'stopped' ? t('admin.projects.statusStopped') : status);

/** How long the list of what an imported zip left out stays on screen (long enough to read it). */
const SKIPPED_TOAST_MS = 10_000;

/**
 * /projects: the list with search, refresh, New Project, connect, and per-project actions.
 * `routeForm` is a form opened by address (/project/...), shown above the list.
 */
export function ProjectsPage(props: { routeForm?: ReactNode } = {}) {
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
  const [renaming, setRenaming] = useState<ProjectSummary | null>(null);
  /** A metadata zip picked for "Import project", and where its project's database is (embedded or connected). */
  const [importing, setImporting] = useState<{ file: File; connect: boolean } | null>(null);
  const zipInput = useRef<HTMLInputElement>(null);

  // Read at start, on refresh and after each action: a read answered after a later one is dropped. A list that
  // could not be read shows its error alone (Refresh reads it again), not the empty state of a user with no projects.
  const latest = useLatest();
  const load = async () => {
    setError(null);
    await latest(projectsApi.list(), setProjects, (e) => (setError(e.message), setProjects([])));
  };
  useEffect(() => {
    void load();
  }, []);

  const shown = useMemo(
    () => (projects ?? []).filter((p) => p.title.toLowerCase().includes(search.trim().toLowerCase())),
    [projects, search],
  );

  /** Runs a project action: `op` names it (in the bell while it runs and in a failure's toast), `done` says it succeeded. */
  const act = async (op: string, done: string, run: () => Promise<unknown>) => {
    await track(op, run(), done).catch(() => {});
    await load();
  };
  /** Owners and creators of a project (and the Super Admin) stop, start, export, clear or delete it; the others only open it. */
  const mayManage = (p: ProjectSummary) => isSuperAdmin.value || !!p.roles?.owner || !!p.roles?.creator;

  return (
    <div className="page">
      <div className="page-head">
        <h1>{t('admin.projects.title')}</h1>
        <div className="page-actions">
          <input className="search" placeholder={t('admin.projects.search')} aria-label={t('admin.projects.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
          <Button variant="secondary" onClick={load} title={t('admin.projects.refresh')}>
            <span aria-hidden>↻</span> {t('admin.projects.refresh')}
          </Button>
          {mayCreate ? <Button variant="secondary" onClick={() => zipInput.current?.click()}>{t('admin.projects.import')}</Button> : null}
          <input
            ref={zipInput}
            type="file"
            accept=".zip,application/zip"
            hidden
            aria-label={t('admin.projects.zipLabel')}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) setImporting({ file, connect: false });
            }}
          />
          {mayCreate ? <Button variant="secondary" onClick={() => setConnecting(true)}>{t('admin.projects.connectExternal')}</Button> : null}
          {mayCreate ? <Button onClick={() => setCreating(true)}>{t('admin.projects.newProject')}</Button> : null}
        </div>
      </div>
      {connecting ? (
        <ExternalDbForm
          onDone={(id) => (setConnecting(false), toast('success', t('admin.projects.created')), id ? navigate(`/nc/${encodeURIComponent(id)}`) : load())}
          onCancel={() => setConnecting(false)}
        />
      ) : null}
      {importing && importing.connect ? (
        <ExternalDbForm
          mode={{ kind: 'import', file: importing.file }}
          onDone={(id) => (setImporting(null), toast('success', t('admin.projects.imported')), id ? navigate(`/nc/${encodeURIComponent(id)}`) : load())}
          onCancel={() => setImporting(null)}
        />
      ) : null}
      {importing && !importing.connect ? (
        <ConfirmDialog
          heading={t('admin.projects.importFrom', { file: importing.file.name })}
          submitLabel={t('admin.projects.newEmbedded')}
          onCancel={() => setImporting(null)}
          onSubmit={() => {
            const file = importing.file;
            setImporting(null);
            void act(t('admin.projects.importOp'), t('admin.projects.importedProject'), async () => {
              const made = await projectMetaApi.createFromZip(file, {});
              // A new embedded database holds none of the zip's tables: say what was left out (as the connect form does).
              if (made.skipped.length) toast('info', t('schema.connect.importedSkipped', { list: made.skipped.join('; ') }), SKIPPED_TOAST_MS);
              if (made.retype.length) toast('info', t('schema.connect.importedRetype', { list: made.retype.join('; ') }), SKIPPED_TOAST_MS);
            });
          }}
        >
          <p className="muted">{t('admin.projects.importHelp')}</p>
          <Button variant="secondary" onClick={() => setImporting({ file: importing.file, connect: true })}>{t('admin.projects.connectDatabase')}</Button>
        </ConfirmDialog>
      ) : null}
      {props.routeForm}
      <FormMessage kind="error" text={error} />
      {creating ? <NewProjectForm onDone={(id) => (setCreating(false), navigate(`/nc/${encodeURIComponent(id)}`))} onCancel={() => setCreating(false)} /> : null}
      {projects === null ? (
        <p className="muted">{t('admin.projects.loading')}</p>
      ) : error ? null : projects.length === 0 ? (
        <div className="empty-state">
          <div className="empty-icon" aria-hidden>▦</div>
          {mayCreate ? (
            <>
              <h2>{t('admin.projects.emptyTitle')}</h2>
              <p className="muted">{t('admin.projects.emptyText')}</p>
              <Button onClick={() => setCreating(true)}>{t('admin.projects.newProject')}</Button>
            </>
          ) : (
            <>
              <h2>{t('admin.projects.noneTitle')}</h2>
              <p className="muted">{t('admin.projects.noneText')}</p>
            </>
          )}
        </div>
      ) : (
        <table className="list-table">
          <thead>
            <tr>
              <th>{t('admin.projects.colTitle')}</th>
              <th>{t('admin.projects.colStatus')}</th>
              <th>{t('admin.projects.colApi')}</th>
              <th>{t('admin.projects.colEnvironment')}</th>
              <th aria-label={t('admin.common.actions')} />
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  {t('admin.projects.noMatch', { search: search.trim() })}
                </td>
              </tr>
            ) : null}
            {shown.map((p) => (
              <tr key={p.id}>
                <td className="project-title">
                  {p.status === 'started' ? <Link to={`/nc/${p.id}`}>{p.title}</Link> : p.title}
                </td>
                <td>
                  <span className={`badge badge-${p.status}`}>{statusText(p.status)}</span>
                </td>
                <td>{p.projectType === 'graphql' ? 'GraphQL' : 'REST' /* i18n-ignore */}</td>
                <td>{p.workingEnv}</td>
                <td>
                  {mayManage(p) ? (
                    <div className="row-actions">
                    {p.status === 'started' ? (
                      <Button variant="ghost" onClick={() => act(t('admin.projects.stopOp', { title: p.title }), t('admin.projects.stopped', { title: p.title }), () => projectsApi.stop(p.id))}>{t('admin.projects.stop')}</Button>
                    ) : (
                      <Button variant="ghost" onClick={() => act(t('admin.projects.startOp', { title: p.title }), t('admin.projects.started', { title: p.title }), () => projectsApi.start(p.id))}>{t('admin.projects.start')}</Button>
                    )}
                    <Button variant="ghost" onClick={() => act(t('admin.projects.restartOp', { title: p.title }), t('admin.projects.restarted', { title: p.title }), () => projectsApi.restart(p.id))}>{t('admin.projects.restart')}</Button>
                    <Button variant="ghost" onClick={() => setRenaming(p)}>{t('admin.projects.rename')}</Button>
                    <Button variant="ghost" onClick={() => act(t('admin.projects.exportOp', { title: p.title }), t('admin.projects.exported', { title: p.title }), () => projectMetaApi.export(p.id, p.title))}>{t('admin.projects.export')}</Button>
                    <Button variant="ghost" onClick={() => setClearing(p)} disabled={p.status !== 'started'}>{t('admin.projects.clearMetadata')}</Button>
                    <Button variant="ghost" onClick={() => setDeleting(p)}>{t('admin.projects.delete')}</Button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {renaming ? (
        <RenameProjectDialog
          project={renaming}
          onCancel={() => setRenaming(null)}
          onDone={(title) => {
            setRenaming(null);
            toast('success', t('admin.projects.renamed', { title }));
            void load();
          }}
        />
      ) : null}
      {clearing ? (
        <ConfirmDialog
          heading={t('admin.projects.clearHeading', { title: clearing.title })}
          onCancel={() => setClearing(null)}
          onSubmit={() => {
            const p = clearing;
            setClearing(null);
            void act(t('admin.projects.clearOp', { title: p.title }), t('admin.projects.cleared', { title: p.title }), () => projectMetaApi.reset(p.id));
          }}
        >
          <p className="muted">{t('admin.projects.clearHelp')}</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          heading={t('admin.projects.deleteHeading', { title: deleting.title })}
          onCancel={() => setDeleting(null)}
          onSubmit={() => {
            const p = deleting;
            setDeleting(null);
            void act(t('admin.projects.deleteOp', { title: p.title }), t('admin.projects.deleted', { title: p.title }), () => projectsApi.remove(p.id));
          }}
        >
          <p className="muted">{t('admin.projects.deleteHelp')}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
