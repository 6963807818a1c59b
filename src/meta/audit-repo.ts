/** The audit log: data changes (table, column, key, value, previous value) and account events. */
import type { MetaStore } from './store';
import { simpleCase } from '../lib/unicode-case';
import { nowIso } from '../lib/ids';
import { keyOrder } from './audit-key-range';

export interface AuditEntry {
  op_type: 'DATA' | 'AUTHENTICATION' | 'TEAM' | 'TOKEN' | 'SCHEMA' | 'TERMINAL' | 'PLUGIN' | 'AUTOMATION' | 'METADATA';
  description?: string;
  project_id?: string | null;
  db_alias?: string | null;
  tn?: string | null;
  cn?: string | null;
  pk?: string | null;
  value?: string | null;
  prev_value?: string | null;
  user_email?: string | null;
  ip?: string | null;
  /** A bulk insert's entry: the smallest and largest key of its rows (see audit-key-range.ts). */
  pk_lo?: string | null;
  pk_hi?: string | null;
  /** When it happened, if not now (a record written late, see audit-backlog.ts). */
  created_at?: string;
}

const COLUMN_NAMES = ['project_id', 'db_alias', 'op_type', 'tn', 'cn', 'pk', 'value', 'prev_value', 'user_email', 'ip', 'description', 'created_at', 'pk_lo', 'pk_hi'] as const;
const COLUMNS = `(${COLUMN_NAMES.join(', ')})`;
const valuesOf = (e: AuditEntry, at: string) => [e.project_id ?? null, e.db_alias ?? null, e.op_type, e.tn ?? null, e.cn ?? null, e.pk ?? null, e.value ?? null, e.prev_value ?? null, e.user_email ?? null, e.ip ?? null, e.description ?? null, e.created_at ?? at, e.pk_lo ?? null, e.pk_hi ?? null];
/** Entries per INSERT of writeMany (14 parameters each: far under every engine's limit). */
const PER_STATEMENT = 500;

export function auditRepo(meta: MetaStore) {
  return {
    /**
     * Several entries with multi-row INSERTs. Where the store can defer writes and still show them to every
     * later read (insertLater: the SQLite store), they are deferred and this answers at once; otherwise they
     * are written (in one transaction when they need more than one statement) before it answers.
     */
    async writeMany(entries: AuditEntry[]): Promise<void> {
      if (entries.length === 0) return;
      const at = nowIso();
      if (meta.insertLater) {
        meta.insertLater('nc_audit', COLUMN_NAMES, entries.map((e) => valuesOf(e, at)));
        return;
      }
      const statement = (part: AuditEntry[]) =>
        [`INSERT INTO nc_audit ${COLUMNS} VALUES ${part.map(() => `(${COLUMN_NAMES.map(() => '?').join(', ')})`).join(', ')}`, part.flatMap((e) => valuesOf(e, at))] as const;
      if (entries.length <= PER_STATEMENT) {
        await meta.run(...statement(entries));
        return;
      }
      await meta.transaction(async (tx) => {
        for (let i = 0; i < entries.length; i += PER_STATEMENT) await tx.run(...statement(entries.slice(i, i + PER_STATEMENT)));
      });
    },
    write: (e: AuditEntry) =>
      meta.run(
        `INSERT INTO nc_audit (project_id, db_alias, op_type, tn, cn, pk, value, prev_value, user_email, ip, description, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [e.project_id ?? null, e.db_alias ?? null, e.op_type, e.tn ?? null, e.cn ?? null, e.pk ?? null, e.value ?? null, e.prev_value ?? null, e.user_email ?? null, e.ip ?? null, e.description ?? null, nowIso()],
      ),
    list: (filter: { project_id?: string; op_type?: string; tn?: string }, limit = 100) =>
      meta.all<AuditEntry & { id: number; created_at: string }>(
        `SELECT * FROM nc_audit WHERE (CAST(? AS TEXT) IS NULL OR project_id = ?) AND (CAST(? AS TEXT) IS NULL OR op_type = ?) AND (CAST(? AS TEXT) IS NULL OR tn = ?)
         ORDER BY id DESC LIMIT ?`,
        [filter.project_id ?? null, filter.project_id ?? null, filter.op_type ?? null, filter.op_type ?? null, filter.tn ?? null, filter.tn ?? null, limit],
      ),
    /**
     * Moves the data changes of table `from` to its new name `to`, so rows keep their history; the links
     * of other rows to its rows (whose entries name it: `{"tn":…}`) follow too.
     */
    async renameTable(projectId: string, dbAlias: string, from: string, to: string) {
      await meta.run(`UPDATE nc_audit SET tn = ? WHERE project_id = ? AND db_alias = ? AND tn = ? AND op_type = 'DATA'`, [to, projectId, dbAlias, from]);
      const [was, now] = [`{"tn":${JSON.stringify(from)},`, `{"tn":${JSON.stringify(to)},`];
      await meta.run(
        `UPDATE nc_audit SET value = CAST(? AS TEXT) || SUBSTR(value, ?) WHERE project_id = ? AND db_alias = ? AND op_type = 'DATA' AND description IN ('link', 'unlink') AND SUBSTR(value, 1, ?) = ?`,
        [now, [...was].length + 1, projectId, dbAlias, [...was].length, was],
      );
    },
    /** Moves the data changes of column `from` of `tn` to its new name `to`. */
    renameColumn: (projectId: string, dbAlias: string, tn: string, from: string, to: string) =>
      meta.run(`UPDATE nc_audit SET cn = ? WHERE project_id = ? AND db_alias = ? AND tn = ? AND cn = ? AND op_type = 'DATA'`, [to, projectId, dbAlias, tn, from]),
    /** The data changes of one row, newest first. */
    rowHistory: (projectId: string, dbAlias: string, tn: string, pk: string, limit: number) =>
      meta.all<AuditEntry & { id: number; created_at: string }>(
        `SELECT * FROM nc_audit WHERE project_id = ? AND db_alias = ? AND tn = ? AND pk = ? AND op_type = 'DATA' ORDER BY id DESC LIMIT ?`,
        [projectId, dbAlias, tn, pk, limit],
      ),
    /**
     * The entry of a bulk insert (one per call, `pk` empty, `value` holding `{ ids, rows }`) that created
     * the row `pk`, with that row's values; undefined when no such entry holds it. Only the entries
     * whose key range holds `pk` are read (audit-key-range.ts), through the index on the range; entries
     * written before ranges were kept (no range) are each looked into.
     */
    async bulkInsertOf(projectId: string, dbAlias: string, tn: string, pk: string) {
      const holds = meta.kind === 'pg' ? `(value::jsonb -> 'ids') @> jsonb_build_array(CAST(? AS TEXT))` : `EXISTS (SELECT 1 FROM json_each(nc_audit.value, '$.ids') WHERE json_each.value = ?)`;
      const key = keyOrder(pk);
      const entry = await meta.get<AuditEntry & { id: number; created_at: string }>(
        `SELECT * FROM nc_audit WHERE project_id = ? AND db_alias = ? AND tn = ? AND pk = '' AND ((pk_lo <= ? AND pk_hi >= ?) OR pk_lo IS NULL)
           AND op_type = 'DATA' AND description = 'insert' AND ${holds} ORDER BY id DESC LIMIT 1`,
        [projectId, dbAlias, tn, key, key, pk],
      );
      if (!entry) return undefined;
      const { ids, rows } = JSON.parse(entry.value!) as { ids: (string | null)[]; rows: unknown[] };
      return { ...entry, pk, value: JSON.stringify(rows[ids.indexOf(pk)] ?? null) };
    },
    /** Newest first, by kind, project, table and text in the e-mail or description; with the total count. */
    async search(filter: { op_type?: string; search?: string; project_id?: string; tn?: string }, limit: number, offset: number) {
      const like = filter.search ? `%${simpleCase(filter.search, 'toLowerCase').replace(/[\\%_]/g, (c) => '\\' + c)}%` : null;
      // SQLite's lower() folds ASCII only: its store registers tablo_lower, which folds as PostgreSQL's lower().
      const lower = meta.kind === 'pg' ? 'lower' : 'tablo_lower';
      const conds: string[] = [];
      const params: unknown[] = [];
      if (filter.op_type) conds.push('op_type = ?'), params.push(filter.op_type);
      if (filter.project_id) conds.push('project_id = ?'), params.push(filter.project_id);
      if (filter.tn) conds.push('tn = ?'), params.push(filter.tn);
      if (like) conds.push(`(${lower}(COALESCE(user_email, '')) LIKE ? ESCAPE '\\' OR ${lower}(COALESCE(description, '')) LIKE ? ESCAPE '\\')`), params.push(like, like);
      const where = conds.length ? conds.join(' AND ') : '1 = 1';
      const rows = await meta.all<AuditEntry & { id: number; created_at: string }>(`SELECT * FROM nc_audit WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`, [...params, limit, offset]);
      const total = (await meta.get<{ n: number }>(`SELECT COUNT(*) AS n FROM nc_audit WHERE ${where}`, params))!.n;
      return { rows, total };
    },
  };
}
