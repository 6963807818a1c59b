/**
 * rawSql `{ sql }`: runs one SQL statement of the SQL Client on the project database and answers
 * `{ rows, affected }`. Owners and creators only (api-contract section 5): it bypasses every data
 * right. Statements that read (SELECT, WITH, PRAGMA, SHOW, EXPLAIN, VALUES, or anything with
 * RETURNING) answer their rows, up to a limit; others answer the rows they affected. On SQLite,
 * statements that reach other files (ATTACH, DETACH, VACUUM INTO) are refused: they would open the
 * metadata store or another project's database past the confinement of sqlite-path.ts.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { LIMITS } from '../../../config/limits';
import { forbidden } from '../../../lib/errors';
import { reachesOtherFiles } from '../../../sql/raw/split';

const Args = z.object({ sql: z.string().trim().min(1, 'The SQL statement is empty').max(LIMITS.rawSqlMaxLength) });

const READS = /^\s*(\(?\s*select|with|pragma|show|explain|values|describe|desc)\b/i;

export const rawSql: DashboardOp = {
  name: 'rawSql',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, env, args }) {
    const { sql: dangerousSql } = parseArgs(Args, args);
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    if (reachesOtherFiles(pdb.db.dialect.engine, dangerousSql)) {
      throw forbidden('The SQL Client cannot attach, detach or write other database files');
    }
    const driver = pdb.db.driver;
    if (READS.test(dangerousSql) || /\breturning\b/i.test(dangerousSql)) {
      const rows = await driver.query<Record<string, unknown>>({ sql: dangerousSql, params: [] });
      return { rows: rows.slice(0, LIMITS.rawSqlMaxRows), affected: 0, truncated: rows.length > LIMITS.rawSqlMaxRows };
    }
    const res = await driver.execute({ sql: dangerousSql, params: [] });
    return { rows: [], affected: res.affected, truncated: false };
  },
};
