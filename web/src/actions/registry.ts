/**
 * Every user command once (id, label, shortcut, when, run), shared by menus, toolbars and the
 * keyboard: ctrl+shift+b toggles dark mode, c opens settings, d goes to the root (spec section 2).
 */
import { signal } from '../stores/signals';
import { darkTheme, nextTheme } from '../stores/settings';
import type { ColumnMeta, TableMeta, VirtualMeta } from '../api/dashboard';
import type { RelationTarget } from '../features/schema/relation-args';
import type { DbScope } from '../api/schema';
import { schemaChanged, schemaDialog } from '../stores/schema-ui';
import { closeTableTab } from '../stores/tabs';
import { canShare } from '../stores/project';
import { proposeChange, proposeVirtual } from '../features/schema/change-flow';
import { relationDeleteArgs } from '../features/schema/relation-args';
import { terminalModalOpen } from '../features/terminal/terminal-store';
import { isSignedIn } from '../stores/session';
import { hookDialog } from '../features/hooks/hooks-store';
import { openImport } from '../features/import/import-store';
import { downloadExport } from '../api/transfer';
import { toast } from '../stores/toasts';

export interface Command {
  id: string;
  label: string;
  /** e.g. 'ctrl+shift+b' or 'c' */
  shortcut?: string;
  when?: () => boolean;
  run: () => void;
}

export const settingsOpen = signal(false);
export const outputOpen = signal(false);
export const logOpen = signal(false);

/** What the grid in view can do (set by the grid while it is shown). */
export interface GridActions {
  reload(): void;
  addRow(): void;
  deleteRows(): void;
  canWrite: boolean;
  hasSelection: boolean;
  /** Opens the add-column form (tables whose schema the user may change). */
  addColumn?: () => void;
}
export const activeGrid = signal<GridActions | null>(null);

/** Opens a dashboard panel (set by the project page; absent outside a project). */
export const panelOpener = signal<((name: string) => void) | null>(null);

export const COMMANDS: Command[] = [
  { id: 'toggleDarkMode', label: 'Toggle dark mode', shortcut: 'ctrl+shift+b', run: () => (darkTheme.value = !darkTheme.value) },
  { id: 'nextTheme', label: 'Next theme', run: nextTheme },
  { id: 'openSettings', label: 'Settings', shortcut: 'c', run: () => (settingsOpen.value = true) },
  { id: 'goHome', label: 'Go to the projects list', shortcut: 'd', run: () => (window.location.hash = '#/projects') },
  { id: 'toggleOutput', label: 'Output window', shortcut: 'o', run: () => (outputOpen.value = !outputOpen.value) },
  { id: 'toggleLog', label: 'Log window', shortcut: 'l', run: () => (logOpen.value = !logOpen.value) },
  { id: 'grid.reload', label: 'Reload rows', when: () => !!activeGrid.value, run: () => activeGrid.value?.reload() },
  { id: 'grid.addRow', label: '+ Add row', when: () => !!activeGrid.value?.canWrite, run: () => activeGrid.value?.addRow() },
  { id: 'grid.deleteRows', label: 'Delete rows', when: () => !!activeGrid.value?.canWrite && !!activeGrid.value.hasSelection, run: () => activeGrid.value?.deleteRows() },
  { id: 'grid.addColumn', label: '+ Add column', when: () => !!activeGrid.value?.addColumn, run: () => activeGrid.value?.addColumn?.() },
  { id: 'openAudit', label: 'Audit (migrations)', when: () => !!panelOpener.value, run: () => panelOpener.value?.('audit') },
  // In a project the Terminal tab opens; elsewhere the terminal opens in a modal (spec section 2).
  { id: 'openTerminal', label: 'Terminal', shortcut: 't', when: () => isSignedIn.value, run: () => (panelOpener.value ? panelOpener.value('terminal') : (terminalModalOpen.value = true)) },
];

export const command = (id: string) => COMMANDS.find((c) => c.id === id)!;

/** A command that acts on something the user pointed at (a database, a table, a column). */
export interface TargetCommand<T> {
  id: string;
  label: string;
  when?: (target: T) => boolean;
  run: (target: T) => void;
  /** The glyph of its button, where it has one (default +). */
  icon?: string;
}

/** Commands of a database's Tables node (schema changes: project owners and creators only). */
export const DB_COMMANDS: TargetCommand<DbScope>[] = [
  { id: 'table.create', label: 'Create table', when: () => canShare.value, run: (scope) => (schemaDialog.value = { kind: 'createTable', scope }) },
  { id: 'table.importNew', label: 'Import CSV or Excel as a new table', icon: '⇪', when: () => canShare.value, run: (scope) => openImport(scope) },
];

const exportTable = (t: TableTarget, format: 'csv' | 'xlsx') => void downloadExport(t.scope.projectId, t._tn, format).catch((e) => toast('error', (e as Error).message));

/** A table of the tree. */
export interface TableTarget {
  scope: DbScope;
  tn: string;
  _tn: string;
}

/** Commands of a table's context menu in the tree. */
export const TABLE_COMMANDS: TargetCommand<TableTarget>[] = [
  { id: 'table.rename', label: 'Rename', when: () => canShare.value, run: (t) => (schemaDialog.value = { kind: 'renameTable', scope: t.scope, tn: t.tn, _tn: t._tn }) },
  { id: 'table.refresh', label: 'Refresh', run: () => schemaChanged() },
  { id: 'table.hooks', label: 'Webhooks', when: () => canShare.value, run: (t) => (hookDialog.value = { scope: t.scope, tn: t.tn, _tn: t._tn }) },
  { id: 'table.import', label: 'Import CSV or Excel…', run: (t) => openImport(t.scope, t) },
  { id: 'table.exportCsv', label: 'Export as CSV', run: (t) => exportTable(t, 'csv') },
  { id: 'table.exportXlsx', label: 'Export as XLSX', run: (t) => exportTable(t, 'xlsx') },
  {
    id: 'table.delete',
    label: 'Delete',
    when: () => canShare.value,
    run: (t) =>
      void proposeChange(`Delete table ${t._tn}`, t.scope, 'tableDelete', { tn: t.tn }).then((done) => done && closeTableTab(t.scope.dbAlias, t._tn)),
  },
];

/** A column of the grid: a database column or a virtual one, at its place among the shown columns. */
export interface ColumnTarget {
  scope: DbScope;
  meta: TableMeta;
  column?: ColumnMeta;
  virtual?: VirtualMeta;
  /** Its position among the table's database columns (display order). */
  index: number;
  sortBy: (desc: boolean) => void;
}

const insertAt = (c: ColumnTarget, at: number) => (schemaDialog.value = { kind: 'addColumn', scope: c.scope, meta: c.meta, insertAt: at });

/** Commands of a column's header menu in the grid. */
export const COLUMN_COMMANDS: TargetCommand<ColumnTarget>[] = [
  {
    id: 'column.edit',
    label: 'Edit',
    run: (c) => (schemaDialog.value = c.virtual ? { kind: 'editVirtual', scope: c.scope, meta: c.meta, virtual: c.virtual } : { kind: 'editColumn', scope: c.scope, meta: c.meta, column: c.column! }),
  },
  { id: 'column.rename', label: 'Rename', when: (c) => !!c.column, run: (c) => (schemaDialog.value = { kind: 'renameColumn', scope: c.scope, meta: c.meta, column: c.column! }) },
  { id: 'column.insertLeft', label: 'Insert left', when: (c) => !!c.column, run: (c) => insertAt(c, c.index) },
  { id: 'column.insertRight', label: 'Insert right', when: (c) => !!c.column, run: (c) => insertAt(c, c.index + 1) },
  { id: 'column.sortAsc', label: 'Sort ascending', run: (c) => c.sortBy(false) },
  { id: 'column.sortDesc', label: 'Sort descending', run: (c) => c.sortBy(true) },
  {
    id: 'column.delete',
    label: 'Delete',
    when: (c) => !c.column?.pk,
    run: (c) =>
      void (c.virtual
        ? proposeVirtual(`Delete column ${c.virtual._cn}`, c.scope, 'virtualColumnDelete', { tn: c.meta.tn, _cn: c.virtual._cn })
        : proposeChange(`Delete column ${c.column!._cn}`, c.scope, 'columnDelete', { tn: c.meta.tn, cn: c.column!.cn })),
  },
];

/** A relation shown as a column of the grid. */
export type { RelationTarget };

/** Commands of a relation column's header menu. */
export const RELATION_COMMANDS: TargetCommand<RelationTarget>[] = [
  {
    id: 'relation.delete',
    label: 'Remove link',
    when: () => canShare.value,
    run: (t) => void proposeChange(`Remove link between ${t.meta._tn} and ${t.relation.table}`, t.scope, 'relationDelete', relationDeleteArgs(t)),
  },
];

const matches = (e: KeyboardEvent, shortcut: string) => {
  const parts = shortcut.split('+');
  const key = parts.pop()!;
  return e.key.toLowerCase() === key && e.ctrlKey === parts.includes('ctrl') && e.shiftKey === parts.includes('shift') && !e.altKey && !e.metaKey;
};

/** Installs the keyboard shortcuts once; typing in a field never triggers single-key shortcuts. */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    const typing = !!target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable);
    for (const c of COMMANDS) {
      if (!c.shortcut || (typing && !c.shortcut.includes('+')) || (c.when && !c.when())) continue;
      if (matches(e, c.shortcut)) {
        e.preventDefault();
        c.run();
        return;
      }
    }
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
