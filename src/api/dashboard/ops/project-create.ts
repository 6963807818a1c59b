/**
 * projectCreateByWeb: a project on a new embedded SQLite database (no `db`) or on an external
 * database. The connection is tested first; the project is started (schema read) before the
 * answer, so its APIs are live when this returns.
 */
import { z } from 'zod';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { conflict } from '../../../lib/errors';
import { projectSlug, randomSlug } from '../../../lib/ids';
import { seal } from '../../../lib/secret-box';
import { projectsRepo } from '../../../meta/projects-repo';
import { assertMayConnect, checkedConnection } from '../connect-rights';
import { connectionToStore } from '../../../schema/registry';
import { createDatabaseIfNotExists, testConnection } from '../../../sql/open-database';

/** A project's title, as typed in New Project, the external database form and Rename. */
export const ProjectTitle = z.string().trim().min(1, 'Project name is required').max(100, 'Project name is too long (at most 100 characters)');

const Args = z.object({
  title: ProjectTitle,
  projectType: z.enum(['rest', 'graphql']).default('rest'),
  inflection: z.enum(['camelize', 'none']).optional(),
  inflectionTable: z.enum(['camelize', 'none']).optional(),
  inflectionColumn: z.enum(['camelize', 'none']).optional(),
  db: z.unknown().optional(),
});

export const projectCreateByWeb: DashboardOp = {
  name: 'projectCreateByWeb',
  access: 'creator',
  async run({ ctx, actor, args }) {
    assertMayConnect(actor);
    const a = parseArgs(Args, args);
    const repo = projectsRepo(ctx.meta);
    if (await repo.titleTaken(a.title)) throw conflict(`A project named '${a.title}' already exists`);
    const id = `${projectSlug(a.title)}_${randomSlug(4)}`;
    const inflectionTable = a.inflectionTable ?? a.inflection ?? 'camelize';
    const inflectionColumn = a.inflectionColumn ?? a.inflection ?? 'camelize';

    let client: string;
    let stored: Record<string, unknown>;
    let isXcdb = 0;
    if (a.db === undefined || a.db === null) {
      mkdirSync(join(ctx.dataDir, 'xcdb'), { recursive: true });
      client = 'sqlite';
      stored = { filename: join('xcdb', `${id}.db`) };
      isXcdb = 1;
    } else {
      const cfg = checkedConnection(ctx, a.db);
      if (cfg.createIfNotExists) await createDatabaseIfNotExists(cfg);
      await testConnection(cfg);
      client = cfg.client;
      stored = JSON.parse(connectionToStore(cfg, ctx.dataDir)) as Record<string, unknown>;
    }
    await repo.create(
      { id, title: a.title, status: 'started', project_type: a.projectType, working_env: 'dev', created_by: actor.userId ?? null },
      {
        env: 'dev',
        db_alias: 'db',
        client,
        connection_enc: seal(ctx.secrets.connectionKey, JSON.stringify(stored)),
        is_xcdb: isXcdb,
        inflection_table: inflectionTable,
        inflection_column: inflectionColumn,
      },
    );
    try {
      await ctx.projects.get(id);
    } catch (e) {
      await repo.delete(id);
      throw e;
    }
    return { id, title: a.title };
  },
};
