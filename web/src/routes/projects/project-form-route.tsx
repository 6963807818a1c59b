/**
 * The project forms by address (spec section 2), each opened over the projects list:
 * /project/xcdb, /project/name and /project/index.js open New Project (a new embedded SQLite
 * database, the focus in its name); /project and /project/0 the external database form for a new
 * project; /project/0?project={id} is where a project whose default database is missing lands
 * ('Database config not found', with the form that connects one); /project/{id} edits the
 * connection of that project's database (owners, creators and the Super Admin, who may connect).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { projectMetaApi, type EnvDbDetail, type EnvDetails } from '../../api/project-meta';
import { http, isUnreachable } from '../../api/http';
import { ExternalDbForm } from '../../features/connect/external-db-form';
import { FormMessage } from '../../components/form';
import { DEFAULT_DB_ALIAS, projectFormOf } from '../../app/route-targets';
import { mayCreateProjects } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { toast } from '../../stores/toasts';
import { ErrorPage } from '../error/error-pages';
import { NewProjectForm } from './new-project-form';
import { ProjectsPage } from './projects-page';
import { t } from '../../i18n';

/** A project's page in the dashboard. */
const dashboardOf = (id: string) => `/nc/${encodeURIComponent(id)}`;

/** /project, /project/{id} and the named forms: which one is decided by projectFormOf. */
export function ProjectFormRoute() {
  useSignals();
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const target = projectFormOf(id);
  const close = () => navigate('/projects');
  const missingOf = params.get('project');
  if (target.kind === 'edit') return <EditConnectionRoute projectId={target.projectId} />;
  if (target.kind === 'external' && id === '0' && missingOf) return <MissingConfigRoute projectId={missingOf} />;
  // Creating projects and connecting databases are for the Super Admin and those they allow.
  if (!mayCreateProjects.value) return <ErrorPage status={403} />;
  const form =
    target.kind === 'embedded' ? (
      <section className="connect-form" aria-label={t('admin.routes.newEmbedded')}>
        <h2>{t('admin.routes.newEmbedded')}</h2>
        <NewProjectForm onDone={(made) => navigate(dashboardOf(made))} onCancel={close} />
      </section>
    ) : (
      <ExternalDbForm onDone={(made) => (toast('success', t('admin.projects.created')), navigate(made ? dashboardOf(made) : '/projects'))} onCancel={close} />
    );
  return <ProjectsPage key={id ?? ''} routeForm={form} />;
}

/** A project, its connections and whether the caller may change them; null while reading. */
type Loaded = { kind: 'missing' } | { kind: 'ready'; project: ProjectSummary; envs: EnvDetails; admin: boolean } | { kind: 'error'; message: string; unreachable: boolean };

/** Reads a project (404 when unknown to the caller), its environments and the caller's project role. */
function useProjectConnections(projectId: string): Loaded | null {
  const [state, setState] = useState<Loaded | null>(null);
  useEffect(() => {
    let live = true;
    setState(null);
    (async () => {
      const project = (await projectsApi.list()).find((p) => p.id === projectId);
      if (!project) return { kind: 'missing' } as const;
      const [envs, me] = await Promise.all([projectMetaApi.envs(projectId), http<{ roles?: Record<string, boolean> }>('/user/me', { query: { project_id: projectId } })]);
      const roles = me.roles ?? {};
      // Spec section 6: admin means creator or owner; connecting is also a right the Super Admin grants.
      const admin = !!(roles.owner || roles.creator || roles.super) && mayCreateProjects.value;
      return { kind: 'ready', project, envs, admin } as const;
    })().then(
      (s) => live && setState(s),
      (e) => live && setState({ kind: 'error', message: (e as Error).message, unreachable: isUnreachable(e) }),
    );
    return () => {
      live = false;
    };
  }, [projectId]);
  return state;
}

/** The database of the working environment the edit form opens: the default one, else the first connected. */
function editableDb(envs: EnvDetails): EnvDbDetail | undefined {
  const dbs = envs.envs[envs.workingEnv]?.dbs ?? [];
  return dbs.find((d) => d.dbAlias === DEFAULT_DB_ALIAS && !d.isXcdb) ?? dbs.find((d) => !d.isXcdb);
}

/** The shell of a form over the list, or the error page when reading failed. */
function Shell(props: { state: Loaded | null; needsAdmin: boolean; children: (s: Extract<Loaded, { kind: 'ready' }>) => ReactNode }) {
  const s = props.state;
  if (s?.kind === 'missing') return <ErrorPage status={404} />;
  if (s?.kind === 'ready' && props.needsAdmin && !s.admin) return <ErrorPage status={403} />;
  // With no server to answer, the list below says so already: the form's place stays empty rather than say it twice.
  const form = s === null ? <p className="muted">{t('common.project.loading')}</p> : s.kind === 'error' ? (s.unreachable ? null : <FormMessage kind="error" text={s.message} />) : s.kind === 'ready' ? props.children(s) : null;
  return <ProjectsPage routeForm={form} />;
}

/** /project/{id}: the edit form of the project's connection ('Update & Restart'). */
function EditConnectionRoute(props: { projectId: string }) {
  const navigate = useNavigate();
  const state = useProjectConnections(props.projectId);
  return (
    <Shell state={state} needsAdmin>
      {({ project, envs }) => {
        const db = editableDb(envs);
        if (!db) {
          return (
            <section className="connect-form" aria-label={t('admin.routes.embeddedOnlyTitle', { title: project.title })}>
              <h2>{t('admin.routes.embeddedOnlyTitle', { title: project.title })}</h2>
              <p className="muted">{t('admin.routes.embeddedOnly')}</p>
              <div className="inline-actions">
                <Link className="btn btn-secondary" to="/projects">{t('admin.routes.backToProjects')}</Link>
                <Link className="btn btn-primary" to={dashboardOf(project.id)}>{t('admin.routes.openProject')}</Link>
              </div>
            </section>
          );
        }
        return (
          <ExternalDbForm
            mode={{ kind: 'edit', projectId: project.id, env: envs.workingEnv, current: db }}
            onCancel={() => navigate('/projects')}
            onDone={() => (toast('success', t('schema.meta.connectionUpdated')), navigate(dashboardOf(project.id)))}
          />
        );
      }}
    </Shell>
  );
}

/** /project/0?project={id}: the project's default database is not configured; connect one. */
function MissingConfigRoute(props: { projectId: string }) {
  const navigate = useNavigate();
  const state = useProjectConnections(props.projectId);
  return (
    <Shell state={state} needsAdmin={false}>
      {({ project, envs, admin }) => (
        <>
          <div className="form-message form-message-error" role="alert">
            <strong>{t('admin.routes.configNotFound')}</strong> {t('admin.routes.configNotFoundBody', { title: project.title, env: envs.workingEnv, db: DEFAULT_DB_ALIAS })}{' '}
            {admin ? t('admin.routes.connectBelow') : t('admin.routes.askOwner')}
          </div>
          {admin ? <ExternalDbForm
            mode={{ kind: 'add', projectId: project.id, env: envs.workingEnv, dbAlias: DEFAULT_DB_ALIAS }}
            onCancel={() => navigate('/projects')}
            onDone={() => (toast('success', t('schema.meta.databaseAdded')), navigate(dashboardOf(project.id)))}
          /> : null}
        </>
      )}
    </Shell>
  );
}
