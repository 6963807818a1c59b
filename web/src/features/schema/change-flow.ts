/**
 * How every schema change runs: ask the server for its statements (`preview: true`), show them in
 * the confirm step, run it once confirmed (tracked in the bell), then let the tree and the grids
 * read the schema again. Callers await the change's answer, or null when it was cancelled or failed.
 */
import { schemaApi, type ChangeResult, type DbScope, type SchemaOp, type VirtualOp } from '../../api/schema';
import type { TableMeta } from '../../api/dashboard';
import { reportError, track } from '../../stores/notifications';
import { pendingChange, schemaChanged } from '../../stores/schema-ui';
import { t } from '../../i18n';

function confirmThen<T>(title: string, statements: string[] | null, run: () => Promise<T>): Promise<T | null> {
  // A change still waiting is dropped (settled as cancelled) by the one that replaces it.
  pendingChange.value?.settle(null);
  return new Promise<T | null>((resolve) => {
    pendingChange.value = { title, statements, run, settle: (r) => resolve(r as T | null) };
  });
}

/**
 * Previews a change, shows its statements, runs it when confirmed. Values the change would alter
 * (a fraction rounded away, text cut) are said in the confirm step; confirming accepts that.
 */
export async function proposeChange(title: string, scope: DbScope, op: SchemaOp, args: Record<string, unknown>): Promise<ChangeResult | null> {
  let preview: { statements: string[]; losses?: string[] };
  try {
    preview = await schemaApi.preview(scope, op, args);
  } catch (e) {
    reportError(title, (e as Error).message);
    return null;
  }
  const losses = preview.losses ?? [];
  const p = confirmThen(title, preview.statements, () => schemaApi.run(scope, op, losses.length ? { ...args, acceptLoss: true } : args));
  const loses = losses.length ? t('schema.change.losesValues', { losses: losses.join('; ') }) : lossOf(op);
  if (loses && pendingChange.value) pendingChange.value = { ...pendingChange.value, loses };
  if (pendingChange.value && DELETES.includes(op)) asked.add(pendingChange.value);
  return p;
}

/** Changes that drop data: rolling their migration back restores the structure, not the rows or values. */
function lossOf(op: SchemaOp): string | undefined {
  if (op === 'tableDelete') return t('schema.change.losesTable');
  if (op === 'columnDelete') return t('schema.change.losesColumn');
  if (op === 'relationDelete') return t('schema.change.losesRelation');
  return undefined;
}

/** Removals: their confirm step asks a question ("Delete table Orders?"). */
const DELETES: string[] = ['tableDelete', 'columnDelete', 'relationDelete', 'virtualColumnDelete'];
const asked = new WeakSet<object>();

/** Whether the confirm step of a pending change is a question (a removal). */
export const isRemoval = (p: object): boolean => asked.has(p);

/** A virtual column change: no SQL runs on the database, the confirm step says so. */
export function proposeVirtual(title: string, scope: DbScope, op: VirtualOp, args: Record<string, unknown>): Promise<TableMeta | null> {
  const p = confirmThen(title, null, () => schemaApi.virtual(scope, op, args));
  if (pendingChange.value && DELETES.includes(op)) asked.add(pendingChange.value);
  return p;
}

/** Shows statements known beforehand (a migration's up or down SQL), runs `run` once confirmed. */
export function confirmStatements<T>(title: string, statements: string[], run: () => Promise<T>): Promise<T | null> {
  return confirmThen(title, statements, run);
}

/** Runs the change waiting for confirmation. */
export async function confirmPending(): Promise<void> {
  const p = pendingChange.value;
  if (!p) return;
  pendingChange.value = null;
  try {
    const out = await track(p.title, p.run());
    schemaChanged();
    p.settle(out);
  } catch {
    // track() has shown the server's message (toast and bell). The schema is read again all the
    // same: an engine without transactional DDL may have run the steps before the failing one,
    // and a failed migration is listed as failed.
    schemaChanged();
    p.settle(null);
  }
}

/** Drops the change waiting for confirmation. */
export function cancelPending(): void {
  const p = pendingChange.value;
  pendingChange.value = null;
  p?.settle(null);
}
