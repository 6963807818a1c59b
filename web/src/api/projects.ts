/** Project calls: dashboard operations `POST /dashboard?q=sqlOp_{api}`. */
import { http } from './http';

/** One row of PROJECT_READ_BY_WEB. */
export interface ProjectSummary {
  id: string;
  title: string;
  status: 'started' | 'stopped';
  projectType: 'rest' | 'graphql';
  workingEnv: string;
  /** The caller's roles in the project (owner, creator, editor, ...). */
  roles?: Record<string, boolean>;
  createdAt: string;
}

/** Runs one dashboard operation; `plus` marks a schema change (the `sqlOpPlus_` variant). */
export function dashboardOp<T = unknown>(api: string, opts: { projectId?: string; dbAlias?: string; env?: string; args?: unknown; plus?: boolean; keepalive?: boolean } = {}): Promise<T> {
  return http<T>('/dashboard', {
    keepalive: opts.keepalive,
    query: { q: `${opts.plus ? 'sqlOpPlus' : 'sqlOp'}_${api}` },
    body: { api, project_id: opts.projectId, dbAlias: opts.dbAlias ?? 'db', env: opts.env, args: opts.args ?? {} },
  });
}

/** The projects list and its per-project actions. */
export const projectsApi = {
  list: async () => (await dashboardOp<{ data: { list: ProjectSummary[] } }>('PROJECT_READ_BY_WEB')).data.list,
  createEmbedded: (title: string) => dashboardOp<{ id: string; title: string }>('projectCreateByWeb', { args: { title, projectType: 'rest' } }),
  stop: (projectId: string) => dashboardOp('projectStop', { projectId }),
  start: (projectId: string) => dashboardOp('projectStart', { projectId }),
  restart: (projectId: string) => dashboardOp('projectRestart', { projectId }),
  remove: (projectId: string) => dashboardOp('projectDelete', { projectId }),
  rename: (projectId: string, title: string) => dashboardOp<{ id: string; title: string }>('projectRename', { projectId, args: { title } }),
};
