/**
 * Schema editing state: which schema dialog is open, the change waiting for confirmation (with the
 * SQL statements it will run), and a generation counter bumped after every change so that the
 * tree's lists and the open grids read the schema again.
 */
import { signal } from './signals';
import type { ColumnMeta, TableMeta, VirtualMeta } from '../api/dashboard';
import type { DbScope } from '../api/schema';

/** A change shown before it runs: its title, the statements (null: metadata only), how to run it. */
export interface PendingChange {
  title: string;
  statements: string[] | null;
  /** What the change throws away for good (a dropped table or column and its data), to say before it runs. */
  loses?: string;
  run: () => Promise<unknown>;
  /** Settles the caller's promise: the run's answer, or null when cancelled or failed. */
  settle: (result: unknown) => void;
}

/** The schema dialogs the project page can show (one at a time). */
export type SchemaDialog =
  | { kind: 'createTable'; scope: DbScope }
  | { kind: 'renameTable'; scope: DbScope; tn: string; _tn: string }
  | { kind: 'addColumn'; scope: DbScope; meta: TableMeta; insertAt?: number }
  | { kind: 'editColumn'; scope: DbScope; meta: TableMeta; column: ColumnMeta }
  | { kind: 'editVirtual'; scope: DbScope; meta: TableMeta; virtual: VirtualMeta }
  | { kind: 'renameColumn'; scope: DbScope; meta: TableMeta; column: ColumnMeta };

/** The change shown in the confirm step, if any. */
export const pendingChange = signal<PendingChange | null>(null);
/** The schema dialog open on the project page, if any. */
export const schemaDialog = signal<SchemaDialog | null>(null);
/** Bumped after each schema change: tree groups and grids reload when it moves. */
export const schemaGeneration = signal(0);

/** Tells every list and grid that the schema changed. */
export function schemaChanged(): void {
  schemaGeneration.value++;
}
