/**
 * The SQLite runner: a child process that runs the SQL Client's statements on its own connection
 * to one SQLite file. bun:sqlite cannot interrupt a statement, and a thread stuck in one cannot be
 * stopped, so cancel and time-out kill this process: the statement really stops, and SQLite's
 * journal rolls back what it had half written. Started by sqlite-session.ts, as a script in
 * development or as the compiled binary itself (src/main.ts starts it when TABLO_SQLITE_RUNNER names
 * the file).
 */
import { Database } from 'bun:sqlite';
import type { RawResult } from './types';
import { jsonRow } from './types';

export interface RunnerRequest {
  sql: string;
  maxRows: number;
}

export type RunnerReply = { ready: true } | { ok: true; result: RawResult } | { ok: false; message: string; code?: string };

function runOne(db: Database, req: RunnerRequest): RunnerReply {
  try {
    const st = db.prepare(req.sql);
    try {
      const names = st.columnNames;
      if (!names.length) {
        const r = st.run();
        return { ok: true, result: { columns: [], rows: [], rowCount: 0, affected: r.changes, truncated: false } };
      }
      const rows = st.values() as unknown[][];
      const declared = st.declaredTypes;
      const actual = st.columnTypes;
      const kept = rows.length > req.maxRows ? rows.slice(0, req.maxRows) : rows;
      for (const row of kept) jsonRow(row);
      return {
        ok: true,
        result: {
          columns: names.map((name, i) => ({ name, type: declared[i] ?? actual[i] ?? '' })),
          rows: kept,
          rowCount: rows.length,
          affected: 0,
          truncated: rows.length > req.maxRows,
        },
      };
    } finally {
      st.finalize();
    }
  } catch (e) {
    return { ok: false, message: String((e as Error)?.message ?? e), code: (e as { code?: string })?.code };
  }
}

/** Serves requests over IPC until the parent goes away. */
export function startSqliteRunner(filename: string): void {
  const db = new Database(filename, { create: false, safeIntegers: true });
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  process.on('message', (m) => process.send!(runOne(db, m as RunnerRequest)));
  process.on('disconnect', () => process.exit(0));
  // The parent holds our stdin: when it dies, stdin ends and so do we.
  void (async () => {
    for await (const _ of Bun.stdin.stream()) void _;
    process.exit(0);
  })();
  process.send!({ ready: true } satisfies RunnerReply);
}

if (import.meta.main) startSqliteRunner(process.env.TABLO_SQLITE_RUNNER ?? '');
