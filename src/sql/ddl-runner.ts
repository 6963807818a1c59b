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

/** One run of a change: its statements, checks, undo steps and `_evolutions` row. */
export interface DdlRun {
  statements: string[];
  /** Run after the last step, inside the transaction (engines that have one). */
  checks?: DdlCheck[];
  /**
   * Engines without transactional DDL: the statements that undo `statements`, in reverse order
   * (undo[i] undoes statements[n - 1 - i]). When a step fails, the steps before it are undone.
   */
  undo?: string[];
  /** The `_evolutions` row to add (apply) or remove (rollback) with the change. */
  evolution?: { id: string; title: string; action: 'insert' | 'delete' };
}

/** SQLite rebuild plans carry their own transaction control; the runner owns it instead. */
const SQLITE_TX_CONTROL = /^(PRAGMA foreign_keys = (ON|OFF)|BEGIN|COMMIT)$/i;

/** The statements a plan shows and runs: without SQLite's own BEGIN / COMMIT / PRAGMA lines. */
export const withoutTxControl = (statements: string[]) => statements.filter((s) => !SQLITE_TX_CONTROL.test(s.trim()));

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

const stepError = (e: unknown, i: number, n: number, tail = ''): AppError =>
  new AppError(isAppError(e) && e.status < 500 ? e.code : 'BAD_REQUEST', `Step ${i + 1} of ${n} failed: ${messageOf(e)}${tail}`);

const done = (i: number) => (i > 1 ? `steps 1 to ${i} were` : 'step 1 was');

async function steps(x: Executor, statements: string[]): Promise<void> {
  for (let i = 0; i < statements.length; i++) {
    try {
      await x.execute({ sql: statements[i]!, params: [] });
    } catch (e) {
      throw stepError(e, i, statements.length);
    }
  }
}

/** Step by step; a failure undoes the steps before it where `undo` says how. */
async function stepsWithUndo(x: Executor, statements: string[], undo: string[] | undefined): Promise<void> {
  const n = statements.length;
  for (let i = 0; i < n; i++) {
    try {
      await x.execute({ sql: statements[i]!, params: [] });
    } catch (e) {
      if (i === 0) throw stepError(e, i, n);
      if (!undo || undo.length !== n) throw stepError(e, i, n, ` (${done(i)} applied and stay${i > 1 ? '' : 's'})`);
      try {
        for (const sql of undo.slice(n - i)) await x.execute({ sql, params: [] });
      } catch (u) {
        throw stepError(e, i, n, ` (${done(i)} applied and could not be undone: ${messageOf(u)})`);
      }
      throw stepError(e, i, n, ` (${done(i)} undone)`);
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
          // Rows that already pointed nowhere before the change are not its fault.
          const check = () => x.query<{ table: string; parent: string }>({ sql: 'PRAGMA foreign_key_check', params: [] });
          const before = (await check()).length;
          await steps(x, statements);
          await finish(db, x, run);
          const after = await check();
          if (after.length > before) {
            const broken = after[after.length - 1]!;
            throw badRequest(`The change would leave rows of '${broken.table}' pointing at no row of '${broken.parent}'`);
          }
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
      await steps(tx, statements);
      await finish(db, tx, run);
    });
    return;
  }
  await stepsWithUndo(driver, statements, run.undo && withoutTxControl(run.undo));
  await finish(db, driver, run);
}
