/**
 * Runs a planned schema change: on engines with transactional DDL (PostgreSQL, SQLite, SQL Server)
 * every step in one transaction, so a failure changes nothing; on MySQL/MariaDB (DDL commits
 * implicitly) step by step, stopping at the first failure. Either way a failure names its step:
 * "Step 2 of 3 failed: ...". The `_evolutions` row of the change is written (or removed) with it.
 */
import type { Database, Executor } from './dialect';
import { AppError, badRequest, isAppError } from '../lib/errors';
import { createEvolutionsSql, deleteEvolution, insertEvolution } from './evolutions';

/** A query that must answer no row for the change to be kept, and the message when one does. */
export interface DdlCheck {
  sql: string;
  message: (row: Record<string, unknown>) => string;
}

export interface DdlRun {
  statements: string[];
  /** Run after the last step, inside the transaction (engines that have one). */
  checks?: DdlCheck[];
  /** The `_evolutions` row to add (apply) or remove (rollback) with the change. */
  evolution?: { id: string; title: string; action: 'insert' | 'delete' };
}

/** SQLite rebuild plans carry their own transaction control; the runner owns it instead. */
const SQLITE_TX_CONTROL = /^(PRAGMA foreign_keys = (ON|OFF)|BEGIN|COMMIT)$/i;

/** The statements a plan shows and runs: without SQLite's own BEGIN / COMMIT / PRAGMA lines. */
export const withoutTxControl = (statements: string[]) => statements.filter((s) => !SQLITE_TX_CONTROL.test(s.trim()));

const stepError = (e: unknown, i: number, n: number, partial: boolean): AppError => {
  const msg = e instanceof Error ? e.message : String(e);
  const tail = partial && i > 0 ? ` (step${i > 1 ? 's 1 to' : ''} ${i} ${i > 1 ? 'were' : 'was'} applied and stay${i > 1 ? '' : 's'})` : '';
  return new AppError(isAppError(e) && e.status < 500 ? e.code : 'BAD_REQUEST', `Step ${i + 1} of ${n} failed: ${msg}${tail}`);
};

async function steps(x: Executor, statements: string[], partial: boolean): Promise<void> {
  for (let i = 0; i < statements.length; i++) {
    try {
      await x.execute({ sql: statements[i]!, params: [] });
    } catch (e) {
      throw stepError(e, i, statements.length, partial);
    }
  }
}

async function finish(db: Database, x: Executor, run: DdlRun): Promise<void> {
  for (const c of run.checks ?? []) {
    const [row] = await x.query<Record<string, unknown>>({ sql: c.sql, params: [] });
    if (row) throw badRequest(c.message(row));
  }
  const ev = run.evolution;
  if (!ev) return;
  const engine = db.dialect.engine;
  await x.execute({ sql: createEvolutionsSql(engine), params: [] });
  await x.execute(ev.action === 'insert' ? insertEvolution(engine, ev.id, ev.title) : deleteEvolution(engine, ev.id));
}

/** Runs the change; throws AppError naming the failing step. */
export async function runDdl(db: Database, run: DdlRun): Promise<void> {
  const statements = withoutTxControl(run.statements);
  const { driver } = db;
  if (db.dialect.engine === 'sqlite' && driver.session) {
    // Foreign key checks are off while tables are rebuilt (SQLite's prescribed procedure) and
    // verified once before the commit.
    await driver.session(async (x) => {
      await x.execute({ sql: 'PRAGMA foreign_keys = OFF', params: [] });
      try {
        await x.execute({ sql: 'BEGIN IMMEDIATE', params: [] });
        try {
          await steps(x, statements, false);
          await finish(db, x, run);
          const [broken] = await x.query<{ table: string; parent: string }>({ sql: 'PRAGMA foreign_key_check', params: [] });
          if (broken) throw badRequest(`The change would leave rows of '${broken.table}' pointing at no row of '${broken.parent}'`);
          await x.execute({ sql: 'COMMIT', params: [] });
        } catch (e) {
          await x.execute({ sql: 'ROLLBACK', params: [] }).catch(() => {});
          throw e;
        }
      } finally {
        await x.execute({ sql: 'PRAGMA foreign_keys = ON', params: [] });
      }
    });
    return;
  }
  if (db.dialect.caps.transactionalDdl) {
    await driver.transaction(async (tx) => {
      await steps(tx, statements, false);
      await finish(db, tx, run);
    });
    return;
  }
  await steps(driver, statements, true);
  await finish(db, driver, run);
}
