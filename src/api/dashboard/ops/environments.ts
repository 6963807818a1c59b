/**
 * Environments: each has its own list of databases (db, db2, ...). projectEnvList shows them
 * (connections without passwords, and only to owners and creators: other members see each
 * database's alias and engine, not the server it lives on), projectDbAdd / projectDbRemove edit them, projectChangeEnv
 * switches the active one (and stays on the current one when the new one's database cannot be opened).
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { badRequest, conflict, notFound } from '../../../lib/errors';
import { seal } from '../../../lib/secret-box';
import { projectsRepo } from '../../../meta/projects-repo';
import { connectionOf, connectionToStore } from '../../../schema/registry';
import { assertMayConnect, checkedConnection } from '../connect-rights';
import { isProjectAdmin } from '../../../data/access';
import { createDatabaseIfNotExists, testConnection } from '../../../sql/open-database';

const ENV_NAME = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, 'Environment names use letters, digits, - and _');
const ALIAS = z.string().regex(/^db[0-9]*$/, "Database aliases are 'db', 'db2', 'db3' ...");

export const projectEnvList: DashboardOp = {
  name: 'projectEnvList',
  access: 'projectMember',
  async run({ ctx, actor, projectId, projectRoles }) {
    const repo = projectsRepo(ctx.meta);
    const project = (await repo.get(projectId))!;
    // Host, port, user, database, file: only those who edit connections see where the data lives.
    const showConnections = isProjectAdmin(actor, projectRoles);
    const envs: Record<string, { active: boolean; dbs: unknown[] }> = {};
    for (const row of await repo.dbs(projectId)) {
      const { connection, client } = connectionOf(row, ctx.secrets.connectionKey, ctx.dataDir);
      const { password: _password, ssl, ...visible } = connection;
      const entry = (envs[row.env] ??= { active: row.env === project.working_env, dbs: [] });
      entry.dbs.push({
        dbAlias: row.db_alias,
        client,
        isXcdb: !!row.is_xcdb,
        inflection: { table: row.inflection_table, column: row.inflection_column },
        ...(showConnections ? { connection: { ...visible, ssl: ssl ? { mode: ssl.mode } : undefined, hasPassword: !!_password } } : {}),
      });
    }
    return { workingEnv: project.working_env, envs };
  },
};

/** The first of 'db', 'db2', 'db3' ... an environment does not use (a removed one is used again). */
function firstFreeAlias(used: Set<string>): string {
  if (!used.has('db')) return 'db';
  let n = 2;
  while (used.has(`db${n}`)) n++;
  return `db${n}`;
}

const AddArgs = z.object({
  env: ENV_NAME,
  dbAlias: ALIAS.optional(),
  db: z.unknown(),
  inflection: z.enum(['camelize', 'none']).default('camelize'),
});

export const projectDbAdd: DashboardOp = {
  name: 'projectDbAdd',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args }) {
    assertMayConnect(actor);
    const a = parseArgs(AddArgs, args);
    const repo = projectsRepo(ctx.meta);
    const inEnv = (await repo.dbs(projectId)).filter((d) => d.env === a.env);
    const alias = a.dbAlias ?? firstFreeAlias(new Set(inEnv.map((d) => d.db_alias)));
    if (inEnv.some((d) => d.db_alias === alias)) throw conflict(`Environment '${a.env}' already has a database '${alias}'`);
    const cfg = checkedConnection(ctx, a.db);
    if (cfg.createIfNotExists) await createDatabaseIfNotExists(cfg);
    await testConnection(cfg);
    await repo.addDb({
      project_id: projectId,
      env: a.env,
      db_alias: alias,
      client: cfg.client,
      connection_enc: seal(ctx.secrets.connectionKey, connectionToStore(cfg, ctx.dataDir)),
      is_xcdb: 0,
      inflection_table: a.inflection,
      inflection_column: a.inflection,
    });
    return { env: a.env, dbAlias: alias };
  },
};

const RemoveArgs = z.object({ env: ENV_NAME, dbAlias: ALIAS });

export const projectDbRemove: DashboardOp = {
  name: 'projectDbRemove',
  access: 'projectAdmin',
  async run({ ctx, projectId, args }) {
    const a = parseArgs(RemoveArgs, args);
    const repo = projectsRepo(ctx.meta);
    const project = (await repo.get(projectId))!;
    const dbs = await repo.dbs(projectId);
    if (!dbs.some((d) => d.env === a.env && d.db_alias === a.dbAlias)) throw notFound(`Database '${a.dbAlias}' not found in environment '${a.env}'`);
    if (a.env === project.working_env && dbs.filter((d) => d.env === a.env).length === 1) {
      throw badRequest('The active environment needs at least one database');
    }
    await ctx.projects.evict(projectId);
    await repo.removeDb(projectId, a.env, a.dbAlias);
    return { ok: true };
  },
};

const ChangeArgs = z.object({ env: ENV_NAME });

export const projectChangeEnv: DashboardOp = {
  name: 'projectChangeEnv',
  access: 'projectAdmin',
  async run({ ctx, projectId, args }) {
    const { env } = parseArgs(ChangeArgs, args);
    const repo = projectsRepo(ctx.meta);
    if (!(await repo.dbs(projectId)).some((d) => d.env === env)) throw notFound(`Environment '${env}' not found`);
    const previous = (await repo.get(projectId))!.working_env;
    await ctx.projects.evict(projectId);
    await repo.setWorkingEnv(projectId, env);
    try {
      await ctx.projects.get(projectId);
    } catch (e) {
      // The new environment's database cannot be opened: the project stays on the one that worked.
      await repo.setWorkingEnv(projectId, previous);
      await ctx.projects.evict(projectId);
      throw e;
    }
    return { ok: true, env };
  },
};
