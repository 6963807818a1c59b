/**
 * How every schema change runs: ask the server for its statements (`preview: true`), show them in
 * the confirm step, run it once confirmed (tracked in the bell), then let the tree and the grids
 * read the schema again. Callers await the change's answer, or null when it was cancelled or failed.
 */
import { schemaApi, type ChangeResult, type DbScope, type SchemaOp, type VirtualOp } from '../../api/schema';
import type { TableMeta } from '../../api/dashboard';
import { reportError, track } from '../../stores/notifications';
import { pendingChange, schemaChanged } from '../../stores/schema-ui';

function confirmThen<T>(title: string, statements: string[] | null, run: () => Promise<T>): Promise<T | null> {
  // A change still waiting is dropped (settled as cancelled) by the one that replaces it.
  pendingChange.value?.settle(null);
  return new Promise<T | null>((resolve) => {
    pendingChange.value = { title, statements, run, settle: (r) => resolve(r as T | null) };
  });
}

/** Previews a change, shows its statements, runs it when confirmed. */
export async function proposeChange(title: string, scope: DbScope, op: SchemaOp, args: Record<string, unknown>): Promise<ChangeResult | null> {
  let statements: string[];
  try {
    statements = await schemaApi.preview(scope, op, args);
  } catch (e) {
    reportError(title, (e as Error).message);
    return null;
  }
  const p = confirmThen(title, statements, () => schemaApi.run(scope, op, args));
  const loses = LOSSES[op];
  if (loses && pendingChange.value) pendingChange.value = { ...pendingChange.value, loses };
  return p;
}

/** Changes that drop data: rolling their migration back restores the structure, not the rows or values. */
const LOSSES: Partial<Record<SchemaOp, string>> = {
  tableDelete: 'The table and every row in it are deleted. Rolling this migration back under Audit brings the table back empty.',
  columnDelete: 'The column and its values in every row are deleted. Rolling this migration back under Audit brings the column back empty.',
  relationDelete: 'The link column (or the junction table) and the links it holds are deleted. Rolling back brings them back empty.',
};

/** A virtual column change: no SQL runs on the database, the confirm step says so. */
export function proposeVirtual(title: string, scope: DbScope, op: VirtualOp, args: Record<string, unknown>): Promise<TableMeta | null> {
  return confirmThen(title, null, () => schemaApi.virtual(scope, op, args));
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
