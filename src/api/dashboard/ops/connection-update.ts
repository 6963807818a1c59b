/**
 * Editing connections: projectDbUpdate replaces the connection of one database of an environment
 * ('Update & Restart': tested first, then stored, then the project opens it again), and
 * projectEnvRemove removes an environment with its databases (never the active one).
 */
import { z } from 'zod';
import type { AppContext } from '../../../context';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { badRequest, notFound } from '../../../lib/errors';
import { seal } from '../../../lib/secret-box';
import { projectsRepo, type ProjectDbRow } from '../../../meta/projects-repo';
import { connectionOf, connectionToStore } from '../../../schema/registry';
import { assertMayConnect, checkedConnection } from '../connect-rights';
import { createDatabaseIfNotExists, testConnection } from '../../../sql/open-database';
import { DbInputSchema, DEFAULT_PORTS } from '../../../schema/connection-input';
import type { Engine } from '../../../sql/dialect';

const ENV_NAME = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, 'Environment names use letters, digits, - and _');
const ALIAS = z.string().regex(/^db[0-9]*$/, "Database aliases are 'db', 'db2', 'db3' ...");

const UpdateArgs = z.object({
  env: ENV_NAME,
  dbAlias: ALIAS,
  db: z.unknown(),
  inflection: z.enum(['camelize', 'none']).optional(),
});

export const projectDbUpdate: DashboardOp = {
  name: 'projectDbUpdate',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args }) {
    assertMayConnect(actor);
    const a = parseArgs(UpdateArgs, args);
    const repo = projectsRepo(ctx.meta);
    const row = await storedDb(ctx, projectId, a.env, a.dbAlias);
    if (row.is_xcdb) throw badRequest('The embedded database of a project cannot be moved to another connection');
    const cfg = checkedConnection(ctx, keepStoredPassword(ctx, row, a.db));
    if (cfg.createIfNotExists) await createDatabaseIfNotExists(cfg);
    await testConnection(cfg);
    const inflection = a.inflection;
    await repo.updateDb({
      project_id: projectId,
      env: a.env,
      db_alias: a.dbAlias,
      client: cfg.client,
      connection_enc: seal(ctx.secrets.connectionKey, connectionToStore(cfg, ctx.dataDir)),
      inflection_table: inflection ?? row.inflection_table,
      inflection_column: inflection ?? row.inflection_column,
    });
    // Update & Restart: the project opens the new connection (and runs again if it had stopped).
    await ctx.projects.evict(projectId);
    const project = (await repo.get(projectId))!;
    if (project.working_env === a.env) {
      await repo.setStatus(projectId, 'started');
      await ctx.projects.get(projectId, a.dbAlias);
    }
    return { ok: true };
  },
};

/** One database of a project's environment, as stored; 404 when there is none. */
export async function storedDb(ctx: AppContext, projectId: string, env: string, dbAlias: string): Promise<ProjectDbRow> {
  const row = (await projectsRepo(ctx.meta).dbs(projectId)).find((d) => d.env === env && d.db_alias === dbAlias);
  if (!row) throw notFound(`Database '${dbAlias}' not found in environment '${env}'`);
  return row;
}

/**
 * The connection form of a stored database with its stored password put back when the form leaves
 * it empty: the form never receives the password, so Test and Update & Restart both use the stored one.
 */
export function keepStoredPassword(ctx: AppContext, row: ProjectDbRow, db: unknown): unknown {
  const given = (db && typeof db === 'object' ? db : {}) as { connection?: Record<string, unknown> };
  const stored = connectionOf(row, ctx.secrets.connectionKey, ctx.dataDir).connection;
  if (!given.connection || given.connection.password || !stored.password) return db;
  // The stored password goes only to the server it was given for: with another host, port or user it
  // would reach whoever runs that server.
  const client = DbInputSchema.shape.client.safeParse((given as { client?: unknown }).client).data ?? row.client;
  const target = (c: Record<string, unknown>) => `${c.host || '127.0.0.1'}:${c.port ?? DEFAULT_PORTS[client as Engine] ?? ''}:${c.user ?? ''}`;
  if (client !== row.client || target(given.connection) !== target(stored as Record<string, unknown>)) throw badRequest('Type the password again: the host, port or user changed');
  return { ...given, connection: { ...given.connection, password: stored.password } };
}

const EnvArgs = z.object({ env: ENV_NAME });

export const projectEnvRemove: DashboardOp = {
  name: 'projectEnvRemove',
  access: 'projectAdmin',
  async run({ ctx, projectId, args }) {
    const { env } = parseArgs(EnvArgs, args);
    const repo = projectsRepo(ctx.meta);
    const project = (await repo.get(projectId))!;
    if (project.working_env === env) throw badRequest(`'${env}' is the active environment: change to another one first`);
    const dbs = (await repo.dbs(projectId)).filter((d) => d.env === env);
    if (dbs.length === 0) throw notFound(`Environment '${env}' not found`);
    for (const d of dbs) await repo.removeDb(projectId, env, d.db_alias);
    return { ok: true };
  },
};
