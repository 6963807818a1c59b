/**
 * `tablo meta copy`: copies every metadata table from one store to another (SQLite -> PostgreSQL
 * when moving a single instance to NC_DB, or back), in one transaction on the target, parents
 * before children. The target must be empty: it is migrated to this version first, and the
 * source must be at the same version. Before the transaction commits every row is read back and
 * compared value by value with the source; any difference rolls everything back.
 */
import type { MetaStore } from './store';
import { migrateMeta, TRANSIENT_TABLES } from './migrate';
import { META_MIGRATIONS } from '../../migrations/index';

/** A copy that was refused or failed its check; nothing was written. */
export class MetaCopyError extends Error {}

export interface CopyReport {
  tables: { name: string; rows: number }[];
}

interface TableInfo {
  name: string;
  columns: string[];
  key: string[];
  parents: string[];
  /** Text columns (PostgreSQL), ordered by bytes like SQLite's BINARY collation. */
  text: string[];
}

const quote = (id: string) => '"' + id.replace(/"/g, '""') + '"';
/** Rows per INSERT (PostgreSQL allows 65,535 parameters per statement). */
const rowsPerInsert = (columns: number) => Math.max(1, Math.min(500, Math.floor(30_000 / columns)));
const PAGE = 5_000;

/** The metadata tables of a store with their columns, primary key and the tables they refer to. */
async function tablesOf(meta: MetaStore): Promise<TableInfo[]> {
  if (meta.kind === 'sqlite') {
    const names = await meta.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'nc\\_%' ESCAPE '\\' ORDER BY name");
    const out: TableInfo[] = [];
    for (const { name } of names) {
      const cols = await meta.all<{ name: string; pk: number }>(`PRAGMA table_info(${quote(name)})`);
      const fks = await meta.all<{ table: string }>(`PRAGMA foreign_key_list(${quote(name)})`);
      const key = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      out.push({ name, columns: cols.map((c) => c.name), key, parents: [...new Set(fks.map((f) => f.table))], text: [] });
    }
    return out;
  }
  const names = await meta.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name LIKE 'nc\\_%' ORDER BY table_name",
  );
  const out: TableInfo[] = [];
  for (const { name } of names) {
    const cols = await meta.all<{ name: string; type: string }>(
      'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
      [name],
    );
    const key = await meta.all<{ name: string }>(
      `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = CAST(? AS regclass) AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
      [name],
    );
    const parents = await meta.all<{ name: string }>(
      "SELECT DISTINCT CAST(confrelid AS regclass)::text AS name FROM pg_constraint WHERE contype = 'f' AND conrelid = CAST(? AS regclass)",
      [name],
    );
    out.push({
      name,
      columns: cols.map((c) => c.name),
      key: key.map((k) => k.name),
      parents: parents.map((p) => p.name.replace(/^"|"$/g, '')),
      text: cols.filter((c) => /text|char/i.test(c.type)).map((c) => c.name),
    });
  }
  return out;
}

/** Parents before children (self-references ignored). */
function parentsFirst(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: TableInfo[] = [];
  const visit = (t: TableInfo, path: Set<string>) => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const p of t.parents) if (p !== t.name && byName.has(p)) visit(byName.get(p)!, path);
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

const versionsOf = async (meta: MetaStore, tables: TableInfo[]) =>
  tables.some((t) => t.name === 'nc_meta_migrations')
    ? (await meta.all<{ version: number }>('SELECT version FROM nc_meta_migrations ORDER BY version')).map((r) => Number(r.version))
    : [];

/**
 * Every row of a table, page by page in key order; the same order on both engines (text by its
 * bytes: SQLite's BINARY, PostgreSQL's "C"), so two stores can be compared page against page.
 */
async function* rowsOf(meta: MetaStore, t: TableInfo): AsyncGenerator<Record<string, unknown>[]> {
  const byBytes = (c: string) => (meta.kind === 'sqlite' ? `${quote(c)} COLLATE BINARY` : t.text.includes(c) ? `${quote(c)} COLLATE "C"` : quote(c));
  const order = (t.key.length ? t.key : t.columns).map(byBytes).join(', ');
  const cols = t.columns.map(quote).join(', ');
  for (let offset = 0; ; offset += PAGE) {
    const page = await meta.all<Record<string, unknown>>(`SELECT ${cols} FROM ${quote(t.name)} ORDER BY ${order} LIMIT ? OFFSET ?`, [PAGE, offset]);
    if (page.length) yield page;
    if (page.length < PAGE) return;
  }
}

const rowKey = (t: TableInfo, row: Record<string, unknown>) => JSON.stringify((t.key.length ? t.key : t.columns).map((c) => row[c] ?? null));
const norm = (v: unknown) => (v === undefined ? null : typeof v === 'bigint' ? Number(v) : v);

/** Copies `from` into the empty store `to` (see the file comment); answers rows copied per table. */
export async function copyMeta(from: MetaStore, to: MetaStore): Promise<CopyReport> {
  const source = await tablesOf(from);
  const sourceVersions = await versionsOf(from, source);
  const known = META_MIGRATIONS.map((m) => m.version);
  if (sourceVersions.join() !== known.join()) {
    throw new MetaCopyError(
      `The source metadata is at migrations [${sourceVersions.join(', ')}], this Tablo at [${known.join(', ')}]: start this version of Tablo on the source once (it applies its migrations), then copy.`,
    );
  }
  for (const t of await tablesOf(to)) {
    if (t.name === 'nc_meta_migrations' || TRANSIENT_TABLES.includes(t.name)) continue;
    const n = await to.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quote(t.name)}`);
    if (Number(n?.n ?? 0) > 0) throw new MetaCopyError(`The target is not empty (${t.name} has ${n!.n} rows); copy only into a new, empty metadata database.`);
  }
  await migrateMeta(to);
  const target = new Map((await tablesOf(to)).map((t) => [t.name, t]));
  const copied = parentsFirst(source.filter((t) => t.name !== 'nc_meta_migrations' && !TRANSIENT_TABLES.includes(t.name)));
  for (const t of copied) {
    const other = target.get(t.name);
    const missing = t.columns.filter((c) => !other?.columns.includes(c));
    if (!other || missing.length) throw new MetaCopyError(`The target has no ${other ? `column ${missing.join(', ')} in` : 'table'} ${t.name}`);
  }

  const report: CopyReport = { tables: [] };
  await to.transaction(async (tx) => {
    for (const t of copied) {
      const perInsert = rowsPerInsert(t.columns.length);
      const cols = t.columns.map(quote).join(', ');
      const tuple = `(${t.columns.map(() => '?').join(', ')})`;
      let rows = 0;
      for await (const page of rowsOf(from, t)) {
        for (let i = 0; i < page.length; i += perInsert) {
          const chunk = page.slice(i, i + perInsert);
          const params = chunk.flatMap((r) => t.columns.map((c) => norm(r[c])));
          await tx.run(`INSERT INTO ${quote(t.name)} (${cols}) VALUES ${chunk.map(() => tuple).join(', ')}`, params);
        }
        rows += page.length;
      }
      report.tables.push({ name: t.name, rows });
    }
    if (tx.kind === 'pg') await restartIdentities(tx);
    for (const t of copied) await verifyTable(from, tx, t, target.get(t.name)!);
  });
  return report;
}

/** Identity columns (nc_audit.id) continue after the highest copied value. */
async function restartIdentities(tx: MetaStore): Promise<void> {
  const ids = await tx.all<{ t: string; c: string }>(
    "SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' AND table_name LIKE 'nc\\_%'",
  );
  for (const { t, c } of ids) {
    await tx.get(`SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX(${quote(c)}) FROM ${quote(t)}), 0) + 1, false) AS v`, [t, c]);
  }
}

/** Reads a table on both sides in the same order and compares every row, value by value. */
async function verifyTable(from: MetaStore, to: MetaStore, t: TableInfo, target: TableInfo): Promise<void> {
  // The target's own text columns decide its order; the source's columns and key are compared.
  const source = rowsOf(from, t);
  const copied = rowsOf(to, { ...target, columns: t.columns, key: t.key });
  let n = 0;
  for (;;) {
    const [x, y] = await Promise.all([source.next(), copied.next()]);
    const want = x.done ? [] : x.value;
    const got = y.done ? [] : y.value;
    for (let i = 0; i < Math.max(want.length, got.length); i++) {
      const w = want[i];
      const g = got[i];
      if (!w || !g) throw new MetaCopyError(`Check failed: ${t.name} has ${w ? 'fewer' : 'more'} rows in the target than in the source; nothing was copied.`);
      const differs = rowKey(t, w) !== rowKey(t, g) ? 'its key' : t.columns.find((c) => norm(w[c]) !== norm(g[c]));
      if (differs) throw new MetaCopyError(`Check failed: ${t.name} row ${n + i + 1} (${rowKey(t, w)}) differs from the source in ${differs}; nothing was copied.`);
    }
    n += want.length;
    if (x.done && y.done) return;
  }
}
