/**
 * Pasting a block of cells, filling a value down and clearing a range: the rows changed in one bulk
 * update and the rows added in one bulk insert (each all or nothing), recorded as one undo step;
 * values that do not fit their column are reported, not written.
 */
import { recordsApi } from '../../api/records';
import type { ColumnMeta } from '../../api/dashboard';
import type { GridStore } from './grid-store';
import { convertPasted, parseTsv, planPaste, type PasteAdding, type PasteProblem } from './clipboard';
import { undoStackOf, type BatchLabel, type UndoStep } from './undo-stack';
import { forWrite, jsonColumns, pick, readRows } from './written-rows';
import { t } from '../../i18n';

type Row = Record<string, unknown>;

/** What a paste or fill did, for the toast. */
export interface PasteOutcome {
  updated: number;
  added: number;
  problems: PasteProblem[];
  /** Rows past the last one that were not added (the role may not add rows). */
  notAdded?: number;
  /** Rows past the last one the server refused to add (all of them: one insert), and its reason; the rows changed stay changed. */
  addFailed?: { count: number; reason: string };
}

/**
 * Writes the changed values of loaded rows and adds new rows; one undo step. Values are as the API
 * reads them (JSON columns' values go as their JSON text); the step keeps the rows as the server
 * then reads them, so an undo finds them unchanged ('2.50' was stored as 2.5).
 */
async function write(store: GridStore, updates: { index: number; values: Row }[], inserts: Row[], label: BatchLabel): Promise<{ updated: number; added: number; addFailed?: PasteOutcome['addFailed'] }> {
  const { projectId, meta } = store;
  const json = jsonColumns(meta);
  const changed: { id: string; before: Row; values: Row }[] = [];
  const body: Row[] = [];
  for (const u of updates) {
    const row = store.rows.value.get(u.index);
    if (!row) continue;
    const key: Row = {};
    for (const pk of meta.pks) key[pk] = row[pk];
    body.push({ ...key, ...forWrite(u.values, json) });
    changed.push({ id: store.idOf(row), before: pick(row, Object.keys(u.values)), values: u.values });
  }
  if (body.length) await recordsApi.updateMany(projectId, meta._tn, body);
  let added = 0;
  let ids: string[] = [];
  let addFailed: PasteOutcome['addFailed'];
  if (inserts.length) {
    try {
      const made = (await recordsApi.createMany(projectId, meta._tn, inserts.map((r) => forWrite(r, json)))) as unknown;
      added = inserts.length;
      // The ids the server gave (answered in order), so an undo can remove these rows again.
      ids = Array.isArray(made) ? made.map((m) => (m && typeof m === 'object' ? store.idOf(m as Row) : String(m))) : [];
    } catch (e) {
      // The rows changed above are written: said, and kept in the undo step, rather than left beyond ctrl+z.
      if (!body.length) throw e;
      addFailed = { count: inserts.length, reason: (e as Error).message };
    }
  }
  if (meta.pks.length && (changed.length || ids.length)) {
    const fresh = await readRows(projectId, meta, [...changed.map((c) => c.id), ...ids], (r) => store.idOf(r)).catch(() => new Map<string, Row>());
    const steps: UndoStep[] = changed.map((c) => {
      const now = fresh.get(c.id);
      return { kind: 'update', projectId, table: meta._tn, id: c.id, before: c.before, after: now ? pick(now, Object.keys(c.values)) : c.values, json };
    });
    ids.forEach((id, i) => {
      const now = fresh.get(id);
      steps.push({ kind: 'insert', projectId, table: meta._tn, id, row: now ? store.storedValues(now) : inserts[i]!, json });
    });
    undoStackOf(projectId).record({ kind: 'batch', projectId, table: meta._tn, label, steps });
  }
  return { updated: body.length, added, addFailed };
}

/** Pastes TSV text with its top-left at `at`; rows past the last one are added as `adding` allows. */
export async function pasteBlock(store: GridStore, text: string, at: { row: number; col: number }, columns: ColumnMeta[], writable: (c: ColumnMeta) => boolean, adding?: PasteAdding): Promise<PasteOutcome> {
  const cells = parseTsv(text);
  if (!cells.length) return { updated: 0, added: 0, problems: [] };
  await store.ensure(at.row, at.row + cells.length);
  const plan = planPaste(cells, at, columns, writable, store.size(), adding);
  const done = await write(store, plan.updates, plan.inserts, { kind: 'paste', rows: cells.length, cols: Math.max(...cells.map((c) => c.length)) });
  return { ...done, problems: plan.problems, notAdded: plan.notAdded };
}

/** Copies the value of row `from` in `column` to the rows after it up to `to`. */
export async function fillDown(store: GridStore, column: ColumnMeta, from: number, to: number): Promise<PasteOutcome> {
  await store.ensure(from, to + 1);
  const value = store.rows.value.get(from)?.[column._cn];
  const updates = [];
  for (let i = from + 1; i <= to; i++) updates.push({ index: i, values: { [column._cn]: value } });
  const done = await write(store, updates, [], { kind: 'fill', column: column._cn });
  return { ...done, problems: [] };
}

/**
 * Empties the cells of a range (Delete on it): each column the user may change gets its empty value
 * (NULL, or '' in a text column that takes no NULL); columns that cannot be changed (the key, a
 * formula) are left as they are, a column that needs a value is reported. Cells already empty are not written.
 */
export async function clearBlock(store: GridStore, range: { top: number; bottom: number; left: number; right: number }, columns: ColumnMeta[], writable: (c: ColumnMeta) => boolean): Promise<PasteOutcome> {
  await store.ensure(range.top, range.bottom + 1);
  const updates: { index: number; values: Row }[] = [];
  const problems: PasteProblem[] = [];
  const right = Math.min(range.right, columns.length - 1);
  for (let index = range.top; index <= range.bottom; index++) {
    const row = store.rows.value.get(index);
    if (!row) continue;
    const values: Row = {};
    for (let k = range.left; k <= right; k++) {
      const c = columns[k]!;
      if (!writable(c) || row[c._cn] === null || row[c._cn] === undefined || row[c._cn] === '') continue;
      const empty = convertPasted(c, '');
      if ('reason' in empty) problems.push({ row: index + 1, column: c._cn, value: '', reason: empty.reason });
      else values[c._cn] = empty.value;
    }
    if (Object.keys(values).length) updates.push({ index, values });
  }
  const done = await write(store, updates, [], { kind: 'clear', rows: range.bottom - range.top + 1, cols: right - range.left + 1 });
  return { ...done, problems };
}

/** The toast text of a cleared range: the rows changed and what could not be emptied. */
export function clearedText(o: PasteOutcome): string {
  const done = t('grid.clear.done', { count: o.updated });
  if (!o.problems.length) return done;
  const shown = o.problems.slice(0, 3).map((p) => t('grid.clear.problem', { row: String(p.row), column: p.column, reason: p.reason }));
  const list = o.problems.length > 3 ? t('grid.paste.problemsMore', { list: shown.join('; ') }) : shown.join('; ');
  return t('grid.clear.doneWithProblems', { done, count: o.problems.length, list });
}

/** The toast text of an outcome: what changed, the rows that could not be added, and what did not fit. */
export function outcomeText(o: PasteOutcome, table = ''): string {
  const written = o.added ? t('grid.paste.doneAdded', { count: o.updated, added: o.added }) : t('grid.paste.done', { count: o.updated });
  const done = o.notAdded ? t('grid.paste.notAdded', { done: written, count: o.notAdded, table }) : o.addFailed ? t('grid.paste.addFailed', { done: written, count: o.addFailed.count, reason: o.addFailed.reason }) : written;
  if (!o.problems.length) return done;
  const shown = o.problems.slice(0, 3).map((p) => t('grid.paste.problem', { row: String(p.row), column: p.column, value: p.value, reason: p.reason }));
  const list = o.problems.length > 3 ? t('grid.paste.problemsMore', { list: shown.join('; ') }) : shown.join('; ');
  return t('grid.paste.doneWithProblems', { done, count: o.problems.length, list });
}
