/** Which import dialog is open (a new table of a database, or an existing table), and the helpers its steps share. */
import { signal } from '../../stores/signals';
import type { DbScope } from '../../api/schema';
import type { ImportJob } from '../../api/transfer';

/** The open import dialog: `tn` set imports into that existing table, else into a new one. */
export const importTarget = signal<{ scope: DbScope; tn?: string; _tn?: string } | null>(null);

/** Opens the import dialog. */
export const openImport = (scope: DbScope, table?: { tn: string; _tn: string }) => (importTarget.value = { scope, tn: table?.tn, _tn: table?._tn });

/** A SQL table name proposed from a file name: word characters, lower case. */
export function tableNameOf(filename: string): string {
  const base = filename.replace(/\.[^.]+$/, '').normalize('NFKD').replace(/[^\w]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase().slice(0, 60);
  return /^[a-z_]/.test(base) ? base : `t_${base || 'import'}`;
}

export const DELIMITER_NAMES: Record<string, string> = { ',': 'comma (,)', ';': 'semicolon (;)', '\t': 'tab', '|': 'pipe (|)' };

/** "1 m 20 s" / "12 s" / "" from milliseconds. */
export function duration(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.max(1, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)} m ${s % 60} s` : `${s} s`;
}

/** The end of an import in words. */
const rows = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;

export function outcome(j: ImportJob): string {
  const n = rows(j.rowsImported);
  switch (j.status) {
    case 'done':
      return `Imported ${n} into ${j.table._tn}${j.rowsSkipped ? `; ${rows(j.rowsSkipped)} skipped` : ''}.`;
    case 'stopped':
      return j.rolledBack ? `Stopped: nothing was imported. ${j.message ?? ''}` : `Stopped after ${n}. ${j.message ?? ''}`;
    case 'cancelled':
      return j.rolledBack ? 'Cancelled: nothing was imported.' : `Cancelled after ${n}.`;
    case 'failed':
      return `The import failed${j.rolledBack ? ' and nothing was kept' : ` after ${n}`}: ${j.message ?? ''}`;
    default:
      return '';
  }
}
