/**
 * Splits the SQL Client's text into statements with dbgate-query-splitter, which knows each
 * dialect's strings, comments, dollar quotes (PostgreSQL), DELIMITER (MySQL), BEGIN...END of
 * triggers (SQLite) and GO (SQL Server). Each statement keeps its offset in the text.
 */
import { mssqlSplitterOptions, mysqlSplitterOptions, postgreSplitterOptions, splitQuery, sqliteSplitterOptions, type SplitterOptions } from 'dbgate-query-splitter';
import type { Engine } from '../dialect';

/** One statement: its text and where it starts and ends (0-based offsets) in the whole text. */
export interface SplitStatement {
  sql: string;
  start: number;
  end: number;
}

const OPTIONS: Record<Engine, SplitterOptions> = {
  pg: postgreSplitterOptions,
  mysql: mysqlSplitterOptions,
  sqlite: sqliteSplitterOptions,
  mssql: mssqlSplitterOptions,
};

/** True when the text holds only comments and blanks. */
function onlyComments(sql: string): boolean {
  return !sql.replace(/\/\*[\s\S]*?\*\//g, '').replace(/--[^\n]*/g, '').replace(/#[^\n]*/g, '').trim();
}

const TRIGGER_START = /^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*create\s+(temp\s+|temporary\s+)?trigger\b/i;
const ENDS_BLOCK = /\bend\s*$/i;

/**
 * SQLite: the splitter's BEGIN ... END blocks (for triggers) would also swallow a transaction's
 * `BEGIN; ...`, so statements are split at every semicolon and a trigger's pieces joined again up to
 * its END.
 */
function joinTriggers(text: string, parts: SplitStatement[]): SplitStatement[] {
  const out: SplitStatement[] = [];
  for (let i = 0; i < parts.length; i++) {
    const first = parts[i]!;
    if (!TRIGGER_START.test(first.sql)) {
      out.push(first);
      continue;
    }
    let last = first;
    while (!ENDS_BLOCK.test(last.sql) && i + 1 < parts.length) last = parts[++i]!;
    out.push({ sql: text.slice(first.start, last.end), start: first.start, end: last.end });
  }
  return out;
}

/** The statements of `text` in order, leaving out empty ones and ones made only of comments. */
export function splitStatements(engine: Engine, text: string): SplitStatement[] {
  const options = engine === 'sqlite' ? { ...OPTIONS.sqlite, skipSeparatorBeginEnd: false } : OPTIONS[engine];
  const items = splitQuery(text, { ...options, returnRichInfo: true });
  const out: SplitStatement[] = [];
  for (const item of items) {
    if (typeof item === 'string') continue;
    if (!item.text.trim() || onlyComments(item.text)) continue;
    const start = item.trimStart?.position ?? item.start.position;
    out.push({ sql: item.text, start, end: item.trimEnd?.position ?? item.end.position });
  }
  return engine === 'sqlite' ? joinTriggers(text, out) : out;
}

/** A statement without the blanks and comments before its first word (which says what kind it is). */
export const withoutLeadingComments = (sql: string) => sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '');

/** Statements that change the schema: after them the model is read again and the tree reloads. */
export function changesSchema(sql: string): boolean {
  return /^(create|alter|drop|rename|comment\s+on)\b/i.test(withoutLeadingComments(sql));
}

/**
 * Statements that may change rows (INSERT, UPDATE, DELETE, MERGE, REPLACE, TRUNCATE, a procedure called,
 * a WITH ending in a write...): after them the open grids of the project read their rows again.
 */
export function changesData(sql: string): boolean {
  const s = withoutLeadingComments(sql);
  if (/^(insert|update|delete|merge|replace|upsert|truncate|call|exec|execute|do|copy|load)\b/i.test(s)) return true;
  return /^with\b/i.test(s) && /\b(insert|update|delete|merge)\b/i.test(s);
}

/** SQLite statements that open or write other database files (keywords are ASCII, any case, never quoted). */
const SQLITE_OTHER_FILES = /\b(attach|detach)\b|\bvacuum\b[\s\S]*\binto\b/i;

/**
 * True for a SQLite statement that reaches another database file (ATTACH, DETACH, VACUUM INTO): it
 * would open the metadata store or another project's database past the confinement of sqlite-path.ts.
 */
export function reachesOtherFiles(engine: Engine, sql: string): boolean {
  return engine === 'sqlite' && SQLITE_OTHER_FILES.test(sql);
}
