/** Project metadata (export, import, reset, a project from a zip) and connection edits. */
import { http, httpBlob, saveBlob } from './http';
import { dashboardOp } from './projects';

/** An upload: the call as JSON in `json`, the file in `file` (api-contract section 4). */
function upload<T>(api: string, file: File, opts: { projectId?: string; args?: unknown } = {}): Promise<T> {
  const form = new FormData();
  form.set('json', JSON.stringify({ api, project_id: opts.projectId, dbAlias: 'db', args: opts.args ?? {} }));
  form.set('file', file);
  return http<T>('/dashboard', { query: { q: `sqlOp_${api}` }, body: form });
}

/**
 * A connection of one database of an environment, as projectEnvList shows it (no password);
 * `connection` only for owners and creators (other members see the alias and engine).
 */
export interface EnvDbDetail {
  dbAlias: string;
  client: 'pg' | 'mysql' | 'mssql' | 'sqlite';
  isXcdb: boolean;
  inflection: { table: string; column: string };
  connection?: { host?: string; port?: number; user?: string; database?: string; schema?: string; filename?: string; ssl?: { mode: string }; hasPassword: boolean };
}
export interface EnvDetails { workingEnv: string; envs: Record<string, { active: boolean; dbs: EnvDbDetail[] }> }

export const projectMetaApi = {
  /** Downloads the metadata zip of a project. */
  async export(projectId: string, title: string): Promise<void> {
    const blob = await httpBlob('/dashboard', { query: { q: 'sqlOp_xcMetaTablesExportDbToZip' }, body: { api: 'xcMetaTablesExportDbToZip', project_id: projectId, args: {} } });
    // The title as it is, only the characters no file system takes replaced ('Música 客户' stays as it is).
    saveBlob(blob, `${title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || 'project'}-metadata.zip`);
  },
  import: (projectId: string, file: File) => upload<{ ok: true; skipped: string[]; retype: string[] }>('xcMetaTablesImportZipToLocalFsAndDb', file, { projectId }),
  reset: (projectId: string) => dashboardOp<{ ok: true }>('xcMetaTablesReset', { projectId }),
  /** A new project from a zip over a connection (`db`), or a new embedded database when `db` is left out. */
  createFromZip: (file: File, args: { title?: string; db?: unknown; inflection?: 'camelize' | 'none' }) => upload<{ id: string; title: string; skipped: string[]; retype: string[] }>('projectCreateByZip', file, { args }),
  envs: (projectId: string) => dashboardOp<EnvDetails>('projectEnvList', { projectId }),
  updateDb: (projectId: string, env: string, dbAlias: string, db: unknown, inflection?: 'camelize' | 'none') =>
    dashboardOp<{ ok: true }>('projectDbUpdate', { projectId, args: { env, dbAlias, db, inflection } }),
  addDb: (projectId: string, env: string, db: unknown, opts: { dbAlias?: string; inflection?: 'camelize' | 'none' } = {}) =>
    dashboardOp<{ env: string; dbAlias: string }>('projectDbAdd', { projectId, args: { env, db, ...opts } }),
  removeDb: (projectId: string, env: string, dbAlias: string) => dashboardOp('projectDbRemove', { projectId, args: { env, dbAlias } }),
  removeEnv: (projectId: string, env: string) => dashboardOp('projectEnvRemove', { projectId, args: { env } }),
};
