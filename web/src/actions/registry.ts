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
import { isSignedIn, isSuperAdmin } from '../stores/session';
import { previewAs } from '../stores/preview';
import { hookDialog } from '../features/hooks/hooks-store';
import { openImport } from '../features/import/import-store';
import { downloadExport } from '../api/transfer';
import { toast } from '../stores/toasts';
import { t } from '../i18n';


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
  /** Whether the user's role may add rows to the table (its create right). */
  canAdd: boolean;
  /** Whether the user's role may delete its rows (its delete right). */
  canDelete: boolean;
  hasSelection: boolean;
  /** Opens the add-column form (tables whose schema the user may change). */
  addColumn?: () => void;
}
export const activeGrid = signal<GridActions | null>(null);

/** Opens a dashboard panel (set by the project page; absent outside a project). */
export const panelOpener = signal<((name: string) => void) | null>(null);

export const COMMANDS: Command[] = [
  { id: 'toggleDarkMode', get label() { return t('app.command.toggleDarkMode'); }, shortcut: 'ctrl+shift+b', run: () => (darkTheme.value = !darkTheme.value) },
  { id: 'nextTheme', get label() { return t('app.command.nextTheme'); }, run: nextTheme },
  { id: 'openSettings', get label() { return t('app.command.settings'); }, shortcut: 'c', run: () => (settingsOpen.value = true) },
  { id: 'goHome', get label() { return t('app.command.goHome'); }, shortcut: 'd', run: () => (window.location.hash = '#/projects') },
  { id: 'toggleOutput', get label() { return t('app.command.output'); }, shortcut: 'o', run: () => (outputOpen.value = !outputOpen.value) },
  { id: 'toggleLog', get label() { return t('app.command.log'); }, shortcut: 'l', run: () => (logOpen.value = !logOpen.value) },
  { id: 'grid.reload', get label() { return t('app.command.reloadRows'); }, when: () => !!activeGrid.value, run: () => activeGrid.value?.reload() },
  { id: 'grid.addRow', get label() { return t('app.command.addRow'); }, when: () => !!activeGrid.value?.canAdd, run: () => activeGrid.value?.addRow() },
  { id: 'grid.deleteRows', get label() { return t('app.command.deleteRows'); }, when: () => !!activeGrid.value?.canDelete && !!activeGrid.value.hasSelection, run: () => activeGrid.value?.deleteRows() },
  { id: 'grid.addColumn', get label() { return t('app.command.addColumn'); }, when: () => !!activeGrid.value?.addColumn, run: () => activeGrid.value?.addColumn?.() },
  { id: 'openAudit', get label() { return t('app.command.audit'); }, when: () => !!panelOpener.value, run: () => panelOpener.value?.('audit') },
  // In a project the Terminal tab opens; elsewhere the terminal opens in a modal (spec section 2).
  // Only for the Super Admin (not while previewing a role), as the project tree shows it.
  { id: 'openTerminal', get label() { return t('app.command.terminal'); }, shortcut: 't', when: () => isSignedIn.value && isSuperAdmin.value && !previewAs.value, run: () => (panelOpener.value ? panelOpener.value('terminal') : (terminalModalOpen.value = true)) },
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
  { id: 'table.create', get label() { return t('app.command.createTable'); }, when: () => canShare.value, run: (scope) => (schemaDialog.value = { kind: 'createTable', scope }) },
  { id: 'table.importNew', get label() { return t('app.command.importNewTable'); }, icon: '⇪', when: () => canShare.value, run: (scope) => openImport(scope) },
];

const exportTable = (t: TableTarget, format: 'csv' | 'xlsx') => void downloadExport(t.scope.projectId, t._tn, format).catch((e) => toast('error', (e as Error).message));

/** A table of the tree. */
export interface TableTarget {
  scope: DbScope;
  tn: string;
  _tn: string;
  /** Whether the user's role may add rows to it (and so import into it); unknown is allowed. */
  canCreate?: boolean;
}

/** Commands of a table's context menu in the tree. */
export const TABLE_COMMANDS: TargetCommand<TableTarget>[] = [
  { id: 'table.rename', get label() { return t('app.command.rename'); }, when: () => canShare.value, run: (tb) => (schemaDialog.value = { kind: 'renameTable', scope: tb.scope, tn: tb.tn, _tn: tb._tn }) },
  { id: 'table.refresh', get label() { return t('app.command.refresh'); }, run: () => schemaChanged() },
  { id: 'table.hooks', get label() { return t('app.command.webhooks'); }, when: () => canShare.value, run: (tb) => (hookDialog.value = { scope: tb.scope, tn: tb.tn, _tn: tb._tn }) },
  { id: 'table.import', get label() { return t('app.command.import'); }, when: (tb) => tb.canCreate !== false, run: (tb) => openImport(tb.scope, tb) },
  { id: 'table.exportCsv', get label() { return t('app.command.exportCsv'); }, run: (tb) => exportTable(tb, 'csv') },
  { id: 'table.exportXlsx', get label() { return t('app.command.exportXlsx'); }, run: (tb) => exportTable(tb, 'xlsx') },
  {
    id: 'table.delete',
    get label() { return t('app.command.delete'); },
    when: () => canShare.value,
    run: (tb) =>
      void proposeChange(t('app.change.deleteTable', { name: tb._tn }), tb.scope, 'tableDelete', { tn: tb.tn }).then((done) => done && closeTableTab(tb.scope.dbAlias, tb._tn)),
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
    get label() { return t('app.command.edit'); },
    run: (c) => (schemaDialog.value = c.virtual ? { kind: 'editVirtual', scope: c.scope, meta: c.meta, virtual: c.virtual } : { kind: 'editColumn', scope: c.scope, meta: c.meta, column: c.column! }),
  },
  { id: 'column.rename', get label() { return t('app.command.rename'); }, when: (c) => !!c.column, run: (c) => (schemaDialog.value = { kind: 'renameColumn', scope: c.scope, meta: c.meta, column: c.column! }) },
  { id: 'column.insertLeft', get label() { return t('app.command.insertLeft'); }, when: (c) => !!c.column, run: (c) => insertAt(c, c.index) },
  { id: 'column.insertRight', get label() { return t('app.command.insertRight'); }, when: (c) => !!c.column, run: (c) => insertAt(c, c.index + 1) },
  { id: 'column.sortAsc', get label() { return t('app.command.sortAsc'); }, run: (c) => c.sortBy(false) },
  { id: 'column.sortDesc', get label() { return t('app.command.sortDesc'); }, run: (c) => c.sortBy(true) },
  {
    id: 'column.delete',
    get label() { return t('app.command.delete'); },
    when: (c) => !c.column?.pk,
    run: (c) =>
      void (c.virtual
        ? proposeVirtual(t('app.change.deleteColumn', { name: c.virtual._cn }), c.scope, 'virtualColumnDelete', { tn: c.meta.tn, _cn: c.virtual._cn })
        : proposeChange(t('app.change.deleteColumn', { name: c.column!._cn }), c.scope, 'columnDelete', { tn: c.meta.tn, cn: c.column!.cn })),
  },
];

/** A relation shown as a column of the grid. */
export type { RelationTarget };

/** Commands of a relation column's header menu. */
export const RELATION_COMMANDS: TargetCommand<RelationTarget>[] = [
  {
    id: 'relation.delete',
    get label() { return t('app.command.removeLink'); },
    when: () => canShare.value,
    run: (tb) => void proposeChange(t('app.change.removeLink', { from: tb.meta._tn, to: tb.relation.table }), tb.scope, 'relationDelete', relationDeleteArgs(tb)),
  },
];

const matches = (e: KeyboardEvent, shortcut: string) => {
  const parts = shortcut.split('+');
  const key = parts.pop()!;
  return e.key.toLowerCase() === key && e.ctrlKey === parts.includes('ctrl') && e.shiftKey === parts.includes('shift') && !e.altKey && !e.metaKey;
};

/** Where keys belong to what has focus: editors (CodeMirror, the terminal), the grid (grouped too), dialogs and menus. */
const KEY_OWNERS = '.cm-editor, .xterm, [role="grid"], [role="treegrid"], [role="dialog"], [role="menu"], [role="listbox"], [contenteditable="true"]';

/**
 * Whether a bare-letter shortcut must stay quiet for this key: focus is in a field, an editor, the
 * grid (a letter there starts editing the cell), or a modal is open.
 */
export function keyIsTyping(target: EventTarget | null): boolean {
  const el = target instanceof HTMLElement ? target : null;
  if (el && (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable || el.closest(KEY_OWNERS))) return true;
  return !!document.querySelector('[aria-modal="true"]');
}

/** Installs the keyboard shortcuts once; typing in a field, an editor or the grid never triggers single-key shortcuts. */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented) return;
    const typing = keyIsTyping(e.target);
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
