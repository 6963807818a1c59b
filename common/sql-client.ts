/** What the SQL Client's run answers for each statement: the server sends it, the web app shows it. */

/** A column of a raw result: its name and the type the database reports. */
export interface RawColumn {
  name: string;
  type: string;
}

/** One statement's outcome; offsets are in the text sent. */
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
  /** False while more rows than these are kept on the server: rawSqlRows `{ resultId }` reads them. */
  complete: boolean;
  resultId?: string;
  error?: { msg: string; kind: string; position?: number; line?: number; code?: string };
}
