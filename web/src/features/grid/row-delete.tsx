/**
 * Deleting rows from the grid: a confirm dialog that names what goes ("Delete 3 rows?" with the
 * rows' display values), Enter confirms and Esc cancels; once deleted, a toast offers Undo for a
 * few seconds, which puts the rows back through the user's undo stack.
 */
import { LIMITS } from '../../lib/limits';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/overlays';
import { track } from '../../stores/notifications';
import { toast } from '../../stores/toasts';
import type { GridStore } from './grid-store';
import { undoStackOf } from './undo-stack';
import { t, tx } from '../../i18n';

/** How long the Undo button stays offered after a delete. */
export const UNDO_TOAST_MS = LIMITS.deleteUndoMs;
/** Rows named in the dialog; more are counted. */
const NAMED = 5;

/** What a row is called: its display value, else its key. */
function rowName(store: GridStore, row: Record<string, unknown>): string {
  const d = store.meta.displayColumn;
  const v = d ? row[d] : undefined;
  return v === null || v === undefined || v === '' ? `#${store.idOf(row)}` : String(v);
}

/**
 * The grid's delete: `ask(active)` opens the dialog for the ticked rows (or the active one); render `dialog`.
 * `settled` runs once the rows are deleted (or refused): the grid takes the keyboard back, for ctrl+z.
 */
export function useRowDelete(store: GridStore, settled?: () => void): { ask: (active: number | null) => void; dialog: ReactNode } {
  const [indexes, setIndexes] = useState<number[] | null>(null);
  const ask = (active: number | null) => {
    const ticked = [...store.selected.value].sort((a, b) => a - b);
    const list = ticked.length ? ticked : active !== null ? [active] : [];
    if (list.some((i) => store.rows.value.has(i))) setIndexes(list.filter((i) => store.rows.value.has(i)));
  };
  const run = async (list: number[]) => {
    setIndexes(null);
    const n = list.length;
    const stack = undoStackOf(store.projectId);
    try {
      if (store.selected.value.size) await track(t('grid.delete.op', { count: n }), store.removeSelected(), t('grid.delete.deleted', { count: n }));
      else await track(t('grid.delete.op', { count: n }), store.remove(list[0]!), t('grid.delete.deleted', { count: n }));
    } catch {
      return; // the toast and the bell carry the server's message
    } finally {
      settled?.();
    }
    const step = stack.last;
    if (!step || step.kind !== 'delete') return;
    toast('success', t('grid.delete.deleted', { count: n }), UNDO_TOAST_MS, {
      label: t('grid.delete.undo'),
      run: () => {
        // Only this delete is undone: after other edits, ctrl+z walks back through them in order.
        if (stack.last !== step) return toast('error', t('grid.delete.otherChanges'));
        void stack.undo().then(
          () => (toast('success', t('grid.delete.restored', { count: n })), store.reload()),
          (e) => toast('error', (e as Error).message),
        );
      },
    });
  };
  const rows = (indexes ?? []).map((i) => store.rows.value.get(i)).filter((r): r is Record<string, unknown> => !!r);
  const dialog = indexes ? (
    <ConfirmDialog heading={t('grid.delete.heading', { count: indexes.length })} submitLabel={t('grid.delete.submit')} onCancel={() => setIndexes(null)} onSubmit={() => void run(indexes)}>
      <p className="muted">
        {tx('grid.delete.body', { count: indexes.length, table: store.meta._tn, b: (chunks) => <strong>{chunks}</strong> })}
      </p>
      <ul className="confirm-list" aria-label={t('grid.delete.listLabel')}>
        {rows.slice(0, NAMED).map((r) => (
          <li key={store.idOf(r)}>{rowName(store, r)}</li>
        ))}
        {rows.length > NAMED ? <li className="muted">{t('grid.delete.more', { count: rows.length - NAMED })}</li> : null}
      </ul>
    </ConfirmDialog>
  ) : null;
  return { ask, dialog };
}
