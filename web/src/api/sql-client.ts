/** SQL Client calls: runs, cancel, the schema to complete, saved queries and history. */
import { dashboardOp } from './projects';

export interface RawColumn { name: string; type: string }
export interface StatementResult {
  sql: string;
  start: number;
  end: number;
  columns: RawColumn[];
  rows: unknown[][];
  rowCount: number;
  affected: number;
  truncated: boolean;
  ms: number;
  error?: { msg: string; kind: string; position?: number; line?: number; code?: string };
}
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

export const sqlClientApi = {
  run: (s: Scope, args: { sql: string; runId: string; timeoutMs: number; explain?: boolean }) => dashboardOp<RunAnswer>('rawSqlRun', { ...s, args }),
  cancel: (s: Scope, runId: string) => dashboardOp<{ cancelled: boolean; connectionId: number | null }>('rawSqlCancel', { ...s, args: { runId } }),
  schema: (s: Scope) => dashboardOp<SqlSchema>('sqlClientSchema', s),
  queries: async (s: Scope) => (await dashboardOp<{ list: SavedQuery[] }>('sqlQueryList', s)).list,
  saveQuery: (s: Scope, q: { id?: string; name: string; sql: string }) => dashboardOp<SavedQuery>('sqlQuerySave', { ...s, args: q }),
  deleteQuery: (s: Scope, id: string) => dashboardOp('sqlQueryDelete', { ...s, args: { id } }),
  history: async (s: Scope) => (await dashboardOp<{ list: HistoryEntry[] }>('sqlHistoryList', s)).list,
  clearHistory: (s: Scope) => dashboardOp('sqlHistoryClear', s),
};
