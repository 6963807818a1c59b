/**
 * Queries that find a value a column type change would alter or drop, run before the change: a
 * fraction rounded away (Decimal to Number), digits past a smaller scale, text cut to a shorter
 * length (not on SQLite, which keeps such values as they are), a number other than 0 or 1 made a
 * checkbox, a time of day cut from a date-time, a date or time dropped, and on PostgreSQL words
 * such as 'tomorrow' that its date types read as a date.
 * Each answers at most one row: the value (`v`) and, where it has one, what it would become (`w`).
 */
import type { TableRef } from './ast';
import type { Engine } from './dialect';
import type { ValueKind } from './model';
import { ENGINES } from './engines';

/** One side of a type change: the value kind and the native type (with its size, `varchar(255)`). */
export interface TypeSide {
  kind: ValueKind;
  type: string;
}

/** A query answering one value the change would lose (no row: none), and what to say of it. */
export interface LossProbe {
  sql: string;
  /** What happens to the value found (`12.5 would become 13`). */
  says: (row: { v: unknown; w?: unknown }) => string;
}

/** The time of day of a date-time value, per engine (compared with '00:00:00'). */
const TIME_OF_DAY: Record<Engine, (c: string) => string> = {
  sqlite: (c) => `time(${c})`,
  pg: (c) => `CAST(${c} AS time)`,
  mysql: (c) => `TIME(${c})`,
  mssql: (c) => `CAST(${c} AS time)`,
};

/** Words PostgreSQL's date and time types read as a date or time of their own ('tomorrow' is a day). */
const PG_SPECIAL_DATES = ['today', 'tomorrow', 'yesterday', 'now', 'epoch', 'infinity', '-infinity', 'allballs'];

const NUMERIC = new Set<ValueKind>(['integer', 'bigint', 'decimal', 'float']);
const WHOLE = new Set<ValueKind>(['integer', 'bigint']);
const TEMPORAL = new Set<ValueKind>(['date', 'datetime', 'time']);

/** Length (`varchar(255)`) or scale (`numeric(10,2)`) of a native type; undefined when it has none. */
const sizeOf = (type: string) => {
  const m = /\((\d+)(?:\s*,\s*(\d+))?\)/.exec(type);
  return { length: m && !m[2] ? Number(m[1]) : undefined, scale: m?.[2] !== undefined ? Number(m[2]) : undefined };
};

const shown = (v: unknown) => {
  const s = typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : String(v);
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
};
/** A number as a person writes it: `12.500000` (a decimal as the driver gives it) is 12.5. */
const shownNumber = (v: unknown) => {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return v.includes('.') ? v.replace(/\.?0+$/, '') : v;
  return shown(v);
};

/** `SELECT <select> FROM <table> WHERE <where>`, the first row only. */
export const firstRow = (engine: Engine, table: TableRef, select: string, where: string) => {
  const t = ENGINES[engine].compiler.table(table);
  return engine === 'mssql' ? `SELECT TOP 1 ${select} FROM ${t} WHERE ${where}` : `SELECT ${select} FROM ${t} WHERE ${where} LIMIT 1`;
};

/** A multiple select becoming a single one: a value holding several choices. */
export function severalChoicesProbe(engine: Engine, table: TableRef, column: string): LossProbe {
  const c = ENGINES[engine].compiler.quoteId(column);
  return { sql: firstRow(engine, table, `${c} AS v`, `${c} LIKE '%,%'`), says: (r) => `${shown(r.v)} holds several choices, where a single select holds one` };
}

/** The loss probes of changing `column` of `table` from one type to another (none when nothing can be lost). */
export function typeChangeLosses(engine: Engine, table: TableRef, column: string, from: TypeSide, to: TypeSide): LossProbe[] {
  const compiler = ENGINES[engine].compiler;
  const c = compiler.quoteId(column);
  const spell = compiler.formulaSpellings;
  const round = (digits: number) => spell.round((i) => (i === 0 ? c : String(digits)), 2, 'day');
  const first = (select: string, where: string) => firstRow(engine, table, select, where);
  const probes: LossProbe[] = [];
  const toSize = sizeOf(to.type);
  const fromSize = sizeOf(from.type);

  // SQLite keeps a value its column's type does not describe as it is (12.5 in an integer column,
  // 300 characters in a varchar(255)): nothing is rounded or cut there.
  const keepsValues = engine === 'sqlite';
  const fraction = from.kind === 'decimal' || from.kind === 'float';
  if (!keepsValues && fraction && WHOLE.has(to.kind)) {
    probes.push({ sql: first(`${c} AS v, ${round(0)} AS w`, `${c} <> ${round(0)}`), says: (r) => `${shownNumber(r.v)} would become ${shownNumber(r.w)}` });
  } else if (!keepsValues && fraction && to.kind === 'decimal' && toSize.scale !== undefined && !(fromSize.scale !== undefined && fromSize.scale <= toSize.scale)) {
    const s = toSize.scale;
    probes.push({ sql: first(`${c} AS v, ${round(s)} AS w`, `${c} <> ${round(s)}`), says: (r) => `${shownNumber(r.v)} would become ${shownNumber(r.w)}` });
  }
  if (NUMERIC.has(from.kind) && to.kind === 'boolean') {
    probes.push({ sql: first(`${c} AS v`, `${c} NOT IN (0, 1)`), says: (r) => `${shownNumber(r.v)} would become true` });
  }
  if (TEMPORAL.has(from.kind) && TEMPORAL.has(to.kind) && from.kind !== to.kind) {
    if (from.kind === 'datetime' && to.kind === 'date') {
      probes.push({ sql: first(`${c} AS v`, `${TIME_OF_DAY[engine](c)} <> '00:00:00'`), says: (r) => `${shown(r.v)} would lose its time of day` });
    } else if (!(from.kind === 'date' && to.kind === 'datetime')) {
      const part = from.kind === 'time' ? 'its time of day' : 'its date';
      probes.push({ sql: first(`${c} AS v`, `${c} IS NOT NULL`), says: (r) => `${shown(r.v)} would lose ${part}` });
    }
  }
  if (!keepsValues && from.kind === 'string' && to.kind === 'string' && toSize.length !== undefined && !(fromSize.length !== undefined && fromSize.length <= toSize.length)) {
    const len = spell.len(() => c, 1, 'day');
    probes.push({ sql: first(`${c} AS v`, `${len} > ${toSize.length}`), says: (r) => `${shown(r.v)} is longer than ${toSize.length} characters and would be cut` });
  }
  if (engine === 'pg' && from.kind === 'string' && TEMPORAL.has(to.kind)) {
    const words = PG_SPECIAL_DATES.map((w) => `'${w}'`).join(', ');
    probes.push({ sql: first(`${c} AS v`, `LOWER(TRIM(${c})) IN (${words})`), says: (r) => `${shown(r.v)} would become the date or time it stands for today` });
  }
  return probes;
}
