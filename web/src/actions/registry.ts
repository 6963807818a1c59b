/**
 * Every user command once (id, label, shortcut, when, run), shared by menus, toolbars and the
 * keyboard: ctrl+shift+b toggles dark mode, c opens settings, d goes to the root (spec section 2).
 */
import { signal } from '../stores/signals';
import { darkTheme, nextTheme } from '../stores/settings';

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
  { id: 'openTerminal', label: 'Terminal', shortcut: 't', when: () => !!panelOpener.value, run: () => panelOpener.value?.('terminal') },
];

export const command = (id: string) => COMMANDS.find((c) => c.id === id)!;

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
