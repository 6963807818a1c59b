/** Which import dialog is open (a new table of a database, or an existing table), and the helpers its steps share. */
import { signal } from '../../stores/signals';
import type { DbScope } from '../../api/schema';
import type { ColumnSpec, ImportJob, UploadAnswer } from '../../api/transfer';
import { locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { LIMITS } from '../../lib/limits';

/** The open import dialog: `tn` set imports into that existing table, else into a new one. */
export const importTarget = signal<{ scope: DbScope; tn?: string; _tn?: string } | null>(null);

/** Opens the import dialog. */
export const openImport = (scope: DbScope, table?: { tn: string; _tn: string }) => (importTarget.value = { scope, tn: table?.tn, _tn: table?._tn });

/** A SQL table name proposed from a file name: word characters, lower case. */
export function tableNameOf(filename: string): string {
  const base = filename.replace(/\.[^.]+$/, '').normalize('NFKD').replace(/[^\w]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase().slice(0, 60);
  return /^[a-z_]/.test(base) ? base : `t_${base || 'import'}`;
}

/** The error a shown cell of the preview holds (#DIV/0!, #N/A...), by `row:column`. */
export function previewErrors(answer: UploadAnswer): Map<string, string> {
  return new Map((answer.preview.errors ?? []).map((e) => [`${e.row}:${e.column}`, e.error]));
}

/**
 * How many sampled rows hold an error in a column that is imported (not skipped): the import
 * reports each of them as a row that does not fit, instead of importing it.
 */
export function rowsWithErrors(answer: UploadAnswer, specs: ColumnSpec[]): number {
  const imported = new Set(specs.filter((s) => !s.skip).map((s) => s.index));
  return new Set((answer.preview.errors ?? []).filter((e) => imported.has(e.column)).map((e) => e.row)).size;
}

/**
 * The note under the preview: which rows it shows and which the types were detected from, in the
 * file's terms when it shows every row, or when the detection read the whole file.
 */
export function previewNote(preview: UploadAnswer['preview']): string {
  const count = preview.rows.length;
  const sampled = preview.sampled;
  if (sampled <= count) return t('tools.import.previewNoteAll', { count });
  if (sampled < LIMITS.importSampleRows) return t('tools.import.previewNoteWholeFile', { count, sampled });
  return t('tools.import.previewNote', { count, sampled });
}

/** The delimiters offered for CSV, each with its name in the current language. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

export function delimiterName(d: string): string {
  if (d === ',') return t('tools.import.delimiterComma');
  if (d === ';') return t('tools.import.delimiterSemicolon');
  if (d === '\t') return t('tools.import.delimiterTab');
  if (d === '|') return t('tools.import.delimiterPipe');
  return d;
}

/** "1 min 20 s" / "12 s" / "" from milliseconds, in the current language. */
export function duration(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.max(1, Math.round(ms / 1000));
  return s >= 60 ? t('tools.import.durationMinutes', { minutes: Math.floor(s / 60), seconds: s % 60 }) : t('tools.import.durationSeconds', { seconds: s });
}

/**
 * Why a row did not fit, in the reader's language. The data core's reasons come without the column
 * they name ("three" is not a whole number, the column being beside it): one that no template
 * matches alone is read again as the server says it of that column.
 */
export function problemReason(p: { column: string | null; reason: string }): string {
  const alone = translateServerMessage(p.reason, locale.value);
  if (alone !== p.reason || p.column === null) return alone;
  const named = `Column '${p.column}': ${p.reason}`;
  const translated = translateServerMessage(named, locale.value);
  return translated === named ? p.reason : translated;
}

/** The end of an import in words. */
export function outcome(j: ImportJob): string {
  const count = j.rowsImported;
  const message = j.message ? translateServerMessage(j.message, locale.value) : '';
  switch (j.status) {
    case 'done':
      return j.rowsSkipped ? t('tools.import.doneSkipped', { count, table: j.table._tn, skipped: j.rowsSkipped }) : t('tools.import.done', { count, table: j.table._tn });
    case 'stopped':
      return j.rolledBack ? t('tools.import.stoppedNothing', { message }) : t('tools.import.stoppedAfter', { count, message });
    case 'cancelled':
      return j.rolledBack ? t('tools.import.cancelledNothing') : t('tools.import.cancelledAfter', { count });
    case 'failed':
      return j.rolledBack ? t('tools.import.failedNothing', { message }) : t('tools.import.failedAfter', { count, message });
    default:
      return '';
  }
}
