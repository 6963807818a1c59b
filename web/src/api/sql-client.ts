/** SQL Client calls: runs, cancel, the schema to complete, saved queries and history. */
import { dashboardOp } from './projects';
import type { RawColumn, StatementResult as ServerStatementResult } from '../../../common/sql-client';

export type { RawColumn } from '../../../common/sql-client';

/** One statement's outcome as the server sends it, and how reading the rest of its rows went. */
export interface StatementResult extends ServerStatementResult {
  /** Set when reading the rest of the rows stopped (cancelled, timed out). */
  loadError?: string;
}
export interface RowsPage { rows: unknown[][]; loaded: number; rowCount: number; done: boolean; truncated: boolean; error?: { msg: string; kind: string } }
export interface RunAnswer {
  runId: string;
  engine: Engine;
  connectionId: number | null;
  results: StatementResult[];
  skipped: number;
  schemaChanged: boolean;
  ms: number;
}
export type Engine = 'sqlite' | 'pg' | 'mysql' | 'mssql';
export interface SqlSchema { engine: Engine; schema: string | null; tables: { name: string; type: string; columns: RawColumn[] }[] }
export interface SavedQuery { id: string; name: string; sql: string; createdAt: string; updatedAt: string }
export interface HistoryEntry { id: string; sql: string; status: 'ok' | 'error' | 'cancelled' | 'timeout'; statements: number; durationMs: number; ranAt: string }

type Scope = { projectId: string; dbAlias: string };

/** Rows read per page after a run's first rows. */
const PAGE = 20_000;

/**
 * Reads the rest of a result's rows into it, page by page, calling `progress` after each page;
 * the grid shows the rows as they come. Stops when `stopped()` says so or the reading failed.
 */
export async function loadRemainingRows(s: Scope, r: StatementResult, progress: () => void, stopped: () => boolean = () => false): Promise<void> {
  while (r.resultId && !r.complete && !r.loadError) {
    if (stopped()) {
      r.loadError = 'Cancelled';
      break;
    }
    const page = await sqlClientApi.rows(s, r.resultId, r.rows.length, PAGE);
    for (const row of page.rows) r.rows.push(row);
    r.rowCount = page.rowCount;
    r.truncated = page.truncated;
    if (page.error) r.loadError = page.error.msg;
    if (page.done && r.rows.length >= page.loaded) r.complete = true;
    progress();
  }
}

export const sqlClientApi = {
  run: (s: Scope, args: { sql: string; runId: string; timeoutMs: number; explain?: boolean }) => dashboardOp<RunAnswer>('rawSqlRun', { ...s, args }),
  cancel: (s: Scope, runId: string) => dashboardOp<{ cancelled: boolean; connectionId: number | null }>('rawSqlCancel', { ...s, args: { runId } }),
  rows: (s: Scope, resultId: string, offset: number, limit: number) => dashboardOp<RowsPage>('rawSqlRows', { ...s, args: { resultId, offset, limit } }),
  schema: (s: Scope) => dashboardOp<SqlSchema>('sqlClientSchema', s),
  queries: async (s: Scope) => (await dashboardOp<{ list: SavedQuery[] }>('sqlQueryList', s)).list,
  saveQuery: (s: Scope, q: { id?: string; name: string; sql: string }) => dashboardOp<SavedQuery>('sqlQuerySave', { ...s, args: q }),
  deleteQuery: (s: Scope, id: string) => dashboardOp('sqlQueryDelete', { ...s, args: { id } }),
  history: async (s: Scope) => (await dashboardOp<{ list: HistoryEntry[] }>('sqlHistoryList', s)).list,
  clearHistory: (s: Scope) => dashboardOp('sqlHistoryClear', s),
};
