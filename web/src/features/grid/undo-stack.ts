/**
 * Undo and redo of the user's own grid edits (ctrl+z, ctrl+shift+z): cell edits, added rows,
 * deleted rows and many-to-many links made or removed, each undone through the REST API (so through the data core, with the user's rights).
 * Before it acts, an undo checks that the row is still as this user left it; when someone changed it
 * since, it refuses with a message and changes nothing (naming a column someone renamed since by its
 * name now: undo-columns.ts); an added row someone commented on since is not taken away either.
 */
import { HttpError } from '../../api/http';
import { recordsApi } from '../../api/records';
import { rowActivityApi } from '../../api/row-activity';
import { localeTag, t } from '../../i18n';
import { forWrite } from './written-rows';
import { namesNow, originOf, type StepOrigin } from './undo-columns';

type Row = Record<string, unknown>;

/**
 * One step of the user's own edits, with values as the API reads them; `json` names the JSON
 * columns, whose values are written back as their JSON text.
 */
export type UndoStep =
  | { kind: 'update'; projectId: string; table: string; id: string; before: Row; after: Row; json?: string[] }
  | { kind: 'insert'; projectId: string; table: string; id: string; row: Row; json?: string[] }
  | { kind: 'delete'; projectId: string; table: string; rows: { id: string; row: Row }[]; json?: string[] }
  /** A many-to-many link the user made (`linked`) or removed, between row `id` and `targetId` of `relation`; `name` labels the target. */
  | { kind: 'link'; projectId: string; table: string; id: string; relation: string; targetId: string; name: string; linked: boolean }
  /** Several steps taken as one (a paste, a fill): undone in reverse order, redone in order. */
  | { kind: 'batch'; projectId: string; table: string; label: BatchLabel; steps: UndoStep[] };

/** What a batch was, for the undo and redo messages: a pasted block (rows × columns) or a column filled down. */
export type BatchLabel = { kind: 'paste'; rows: number; cols: number } | { kind: 'clear'; rows: number; cols: number } | { kind: 'fill'; column: string };

/** Steps kept for undo. */
const UNDO_MAX = 100;

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const asNumber = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v) : null;

/**
 * Whether a value read now is the one expected. A pasted value is kept as typed ('1.50', true) while
 * the server answers it in its own form (1.5, 1): numbers, numeric text and checkboxes are compared
 * as numbers, everything else as written.
 */
function same(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a ?? null) === JSON.stringify(b ?? null)) return true;
  const [x, y] = [asNumber(a), asNumber(b)];
  return x !== null && y !== null && x === y && (typeof a !== 'string' || typeof b !== 'string');
}

/** The columns of `expected` whose current value differs (the row changed since). */
function changedSince(current: Row, expected: Row): string[] {
  return Object.keys(expected).filter((k) => !same(current[k], expected[k]));
}

async function readOrNull(projectId: string, table: string, id: string): Promise<Row | null> {
  try {
    return await recordsApi.read(projectId, table, id);
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return null;
    throw e;
  }
}

/** The user's undo and redo stacks (for the open project). */
export class UndoStack {
  private done: UndoStep[] = [];
  private undone: UndoStep[] = [];
  /** Where each step's table and columns were when it was taken. */
  private origins = new WeakMap<UndoStep, StepOrigin>();

  record(step: UndoStep): void {
    const origin = originOf(step.projectId, step.table, columnsOf(step));
    if (origin) this.origins.set(step, origin);
    this.done.push(step);
    if (this.done.length > UNDO_MAX) this.done.shift();
    this.undone = [];
  }

  /** The step an undo would undo now. */
  get last(): UndoStep | undefined {
    return this.done.at(-1);
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }
  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Undoes the last step; answers what was undone, or throws a message when it cannot be. */
  async undo(): Promise<string> {
    const step = this.done.at(-1);
    if (!step) throw new Error(t('grid.undo.nothingToUndo'));
    await apply(step, 'undo', this.origins.get(step));
    this.done.pop();
    this.undone.push(step);
    return describe(step, 'undo');
  }

  async redo(): Promise<string> {
    const step = this.undone.at(-1);
    if (!step) throw new Error(t('grid.undo.nothingToRedo'));
    await apply(step, 'redo', this.origins.get(step));
    this.undone.pop();
    this.done.push(step);
    return describe(step, 'redo');
  }
}

/** The columns a step writes (by their names when it was taken). */
function columnsOf(step: UndoStep): string[] {
  if (step.kind === 'batch') return [...new Set(step.steps.flatMap(columnsOf))];
  if (step.kind === 'update') return Object.keys(step.before);
  if (step.kind === 'insert') return Object.keys(step.row);
  if (step.kind === 'delete') return [...new Set(step.rows.flatMap((r) => Object.keys(r.row)))];
  return [];
}

/** 'a, b' in the current language. */
const names = (list: string[]) => new Intl.ListFormat(localeTag(), { type: 'unit', style: 'short' }).format(list);

/** The message after an undo or a redo of a step. */
function describe(step: UndoStep, way: 'undo' | 'redo'): string {
  const undo = way === 'undo';
  if (step.kind === 'batch') {
    const l = step.label;
    if (l.kind === 'paste') return undo ? t('grid.undo.undidPaste', { rows: l.rows, cols: l.cols }) : t('grid.undo.redidPaste', { rows: l.rows, cols: l.cols });
    if (l.kind === 'clear') return undo ? t('grid.undo.undidClear', { rows: l.rows, cols: l.cols }) : t('grid.undo.redidClear', { rows: l.rows, cols: l.cols });
    return undo ? t('grid.undo.undidFill', { column: l.column }) : t('grid.undo.redidFill', { column: l.column });
  }
  if (step.kind === 'update') {
    const columns = names(Object.keys(step.after));
    return undo ? t('grid.undo.undidChange', { columns }) : t('grid.undo.redidChange', { columns });
  }
  if (step.kind === 'insert') return undo ? t('grid.undo.undidAdd') : t('grid.undo.redidAdd');
  if (step.kind === 'link') {
    const name = step.name;
    if (step.linked) return undo ? t('grid.undo.undidLink', { name }) : t('grid.undo.redidLink', { name });
    return undo ? t('grid.undo.undidUnlink', { name }) : t('grid.undo.redidUnlink', { name });
  }
  const count = step.rows.length;
  return undo ? t('grid.undo.undidDelete', { count }) : t('grid.undo.redidDelete', { count });
}

/** The refusal when the row changed since the step (naming the changed columns). */
const changedError = (changed: string[], way: 'undo' | 'redo') =>
  new Error(way === 'undo' ? t('grid.undo.changedNotUndone', { columns: names(changed) }) : t('grid.undo.changedNotRedone', { columns: names(changed) }));

/** The steps of a batch in the order a way takes them (an undo goes backwards). */
const inOrder = (steps: UndoStep[], way: 'undo' | 'redo') => (way === 'undo' ? [...steps].reverse() : steps);

/**
 * Takes a step one way. Every row it touches is checked first (a batch: all of its rows), so a row
 * someone changed since refuses the whole step and nothing of it is written.
 */
async function apply(step: UndoStep, way: 'undo' | 'redo', origin: StepOrigin | undefined): Promise<void> {
  await check(step, way, origin);
  await act(step, way);
}

/** Throws the refusal when a row of the step changed since (or is gone, or its key is taken); reads only. */
async function check(step: UndoStep, way: 'undo' | 'redo', origin: StepOrigin | undefined): Promise<void> {
  const { projectId, table } = step;
  /** The refusal for a row read now, naming its changed columns as they are called now. */
  const refusal = async (changed: string[], current: Row) => changedError(await namesNow(projectId, origin, changed, current), way);
  if (step.kind === 'batch') {
    for (const s of inOrder(step.steps, way)) await check(s, way, origin);
    return;
  }
  if (step.kind === 'update') {
    const expect = way === 'undo' ? step.after : step.before;
    const current = await readOrNull(projectId, table, step.id);
    if (!current) throw new Error(t('grid.undo.rowDeleted'));
    const changed = changedSince(current, expect);
    if (changed.length) throw await refusal(changed, current);
    return;
  }
  if (step.kind === 'link') {
    if (!(await readOrNull(projectId, table, step.id))) throw new Error(t('grid.undo.rowDeleted'));
    return;
  }
  const rows = step.kind === 'insert' ? [{ id: step.id, row: step.row }] : step.rows;
  if (removesRows(step, way)) {
    for (const r of rows) {
      const current = await readOrNull(projectId, table, r.id);
      if (!current) continue;
      const changed = changedSince(current, r.row);
      if (changed.length) throw await refusal(changed, current);
    }
    // A row added here that someone commented on since is not taken away from under their comments.
    if (step.kind === 'insert' && (await rowActivityApi.counts(projectId, 'db', table, [step.id]))[step.id]) throw new Error(t('grid.undo.commentedNotUndone'));
  } else {
    for (const r of rows) if (await readOrNull(projectId, table, r.id)) throw new Error(t('grid.undo.keyExists'));
  }
}

/** Whether taking the step this way removes rows (undoing an insert, redoing a delete). */
const removesRows = (step: UndoStep, way: 'undo' | 'redo') => (way === 'undo' ? step.kind === 'insert' : step.kind === 'delete');

/** Writes the step (checked already). */
async function act(step: UndoStep, way: 'undo' | 'redo'): Promise<void> {
  const { projectId, table } = step;
  if (step.kind === 'batch') {
    for (const s of inOrder(step.steps, way)) await act(s, way);
    return;
  }
  if (step.kind === 'update') {
    await recordsApi.update(projectId, table, step.id, forWrite(way === 'undo' ? step.before : step.after, step.json));
    return;
  }
  if (step.kind === 'link') {
    // Undoing a link removes it, undoing an unlink makes it again; a redo does what the user did.
    const link = (way === 'redo') === step.linked;
    await (link ? recordsApi.link : recordsApi.unlink)(projectId, table, step.id, step.relation, step.targetId);
    return;
  }
  const rows = step.kind === 'insert' ? [{ id: step.id, row: step.row }] : step.rows;
  if (removesRows(step, way)) {
    if (rows.length === 1) await recordsApi.remove(projectId, table, rows[0]!.id);
    else await recordsApi.removeMany(projectId, table, rows.map((r) => r.id));
  } else {
    await recordsApi.createMany(projectId, table, rows.map((r) => forWrite(r.row, step.json)));
  }
}

/** One stack per project (the user's own edits in this browser tab). */
const stacks = new Map<string, UndoStack>();
export function undoStackOf(projectId: string): UndoStack {
  let s = stacks.get(projectId);
  if (!s) stacks.set(projectId, (s = new UndoStack()));
  return s;
}
