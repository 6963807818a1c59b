/**
 * A has-many cell: the children as chips; + links another row of the child table to this one
 * (its foreign key is set to this row's key), × unlinks a child (its foreign key is emptied; the
 * server refuses with its message when the column may not be empty). Both are steps of the user's
 * undo (ctrl+z in the grid).
 */
import { useState, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import type { RelationMeta, TableMeta } from '../../api/dashboard';
import { recordsApi } from '../../api/records';
import { track } from '../../stores/notifications';
import { RowPicker } from './row-picker';
import { undoStackOf } from './undo-stack';
import type { GridStore } from './grid-store';
import { idOf, labelOf, relationKey } from './relation-cell';
import { t } from '../../i18n';

type Row = Record<string, unknown>;

export function HasManyCell(props: {
  store: GridStore;
  meta: TableMeta;
  relation: RelationMeta;
  row: Row;
  index: number;
  readOnly: boolean;
  chips: (list: Row[], unlink?: (x: Row) => void) => ReactNode;
  search: (text: string) => string | undefined;
}) {
  const { store, relation: r, row, index } = props;
  const [picking, setPicking] = useState(false);
  const children = (row[relationKey(r)] as Row[] | undefined) ?? [];
  // Links need the foreign key's columns (older servers did not send them for has-many).
  const editable = !props.readOnly && r.columns.length > 0 && r.columns.length === r.refColumns.length;
  const points = (child: Row) => r.columns.every((c, i) => String(child[c]) === String(row[r.refColumns[i]!]));
  /** Points the child's foreign key at `parent` (null: empties it); the change is one step of the user's undo. */
  const setParent = async (child: Row, parent: Row | null) => {
    const id = idOf(r.targetPks, child);
    // A child listed in the cell pointed at this row (its listed fields may leave the key out); a picked one holds its own.
    const before = Object.fromEntries(r.columns.map((c, i) => [c, parent ? (child[c] ?? null) : row[r.refColumns[i]!]]));
    const after = Object.fromEntries(r.columns.map((c, i) => [c, parent ? parent[r.refColumns[i]!] : null]));
    const updated = await recordsApi.update(store.projectId, r.table, id, after);
    undoStackOf(store.projectId).record({ kind: 'update', projectId: store.projectId, table: r.table, id, before, after: Object.fromEntries(r.columns.map((c) => [c, updated?.[c] ?? after[c]])) });
  };
  const unlink = async (child: Row) => {
    try {
      await track(t('grid.relation.unlinking', { name: labelOf(r, child) }), setParent(child, null).then(() => store.refreshRow(index)), t('grid.relation.unlinked', { name: labelOf(r, child) }));
    } catch {
      // The toast and the bell carry the server's message.
    }
  };
  return (
    <div className="relation-cell">
      {props.chips(children, editable ? unlink : undefined)}
      {editable ? (
        <button type="button" className="chip-add" aria-label={t('grid.relation.link', { table: r.table })} onClick={() => setPicking(true)}>
          <Plus size={12} aria-hidden />
        </button>
      ) : null}
      {picking ? (
        <RowPicker
          title={t('grid.relation.link', { table: r.table })}
          load={async (text) => (await recordsApi.list(store.projectId, r.table, { limit: 50, offset: 0, where: props.search(text) })).filter((x) => !points(x)).slice(0, 25)}
          label={(x) => labelOf(r, x)}
          onPick={async (child) => {
            await track(t('grid.relation.linking', { name: labelOf(r, child) }), setParent(child, row).then(() => store.refreshRow(index)), t('grid.relation.linked', { name: labelOf(r, child) }));
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      ) : null}
    </div>
  );
}
