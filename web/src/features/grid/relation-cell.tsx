/**
 * Relation columns of the grid: belongs-to shows the parent's display value and lets you pick
 * another; has-many shows the children, links one (its foreign key set to this row) through a
 * picker and unlinks with × (its foreign key emptied); many-to-many lists linked rows, links
 * through a picker fed by m2mNotChildren and unlinks with ×.
 */
import { useState } from 'react';
import type { RelationMeta, TableMeta } from '../../api/dashboard';
import { recordsApi } from '../../api/records';
import { track } from '../../stores/notifications';
import { RowPicker } from './row-picker';
import { undoStackOf } from './undo-stack';
import type { GridStore } from './grid-store';
import { HasManyCell } from './has-many-cell';
import { t } from '../../i18n';
import { containsPattern } from '../../lib/like-pattern';

type Row = Record<string, unknown>;

export const relationKey = (r: RelationMeta) => (r.type === 'hm' ? `${r.alias}List` : r.type === 'bt' ? `${r.alias}Read` : `${r.alias}MMList`); // i18n-ignore

/** The display value of a nested row: its display column, else its key. */
export function labelOf(r: RelationMeta, row: Row | null | undefined): string {
  if (!row) return '';
  const v = (r.targetDisplay && row[r.targetDisplay]) ?? r.targetPks.map((k) => row[k]).join(' / ');
  return v === null || v === undefined ? '' : String(v);
}

export const idOf = (keys: string[], row: Row) => keys.map((k) => String(row[k])).join('___');

/** The where that finds the target rows whose display column contains `text` (none without text or display column). */
export const displaySearch = (r: RelationMeta, text: string) => (text && r.targetDisplay ? `(${r.targetDisplay},like,${containsPattern(text)})` : undefined);

export function RelationCell(props: { store: GridStore; meta: TableMeta; relation: RelationMeta; row: Row; index: number; readOnly: boolean }) {
  const { store, relation: r, row, index } = props;
  const [picking, setPicking] = useState(false);
  const value = row[relationKey(r)];
  const rowId = store.idOf(row);
  const search = (text: string) => displaySearch(r, text);

  const chips = (list: Row[], unlink?: (x: Row) => void) =>
    list.map((x, i) => (
      <span key={i} className="chip">
        {labelOf(r, x)}
        {unlink ? <button type="button" className="chip-x" aria-label={t('grid.relation.unlink', { name: labelOf(r, x) })} onClick={(e) => (e.stopPropagation(), unlink(x))}>×</button> : null}
      </span>
    ));

  if (r.type === 'hm') return <HasManyCell {...props} chips={chips} search={search} />;

  if (r.type === 'bt') {
    return (
      <div className="relation-cell" onDoubleClick={() => !props.readOnly && setPicking(true)}>
        {value ? <span className="chip">{labelOf(r, value as Row)}</span> : null}
        {!props.readOnly ? <button type="button" className="chip-add" aria-label={t('grid.relation.choose', { table: r.table })} onClick={() => setPicking(true)}>⌄</button> : null}
        {picking ? (
          <RowPicker
            title={t('grid.relation.choose', { table: r.table })}
            load={async (text) => recordsApi.list(store.projectId, r.table, { limit: 25, offset: 0, where: search(text) })}
            label={(x) => labelOf(r, x)}
            onPick={async (parent) => {
              const changes = Object.fromEntries(r.columns.map((c, i) => [c, parent[r.refColumns[i]!]]));
              const row = props.row;
              // The row is read again inside the tracked call, so 'done' means the cell shows it.
              await track(
                t('grid.relation.changing', { table: r.table }),
                recordsApi.update(store.projectId, props.meta._tn, rowId, changes).then((updated) => {
                  // A step of the user's undo when the row holds its foreign key (a hidden field may leave it out).
                  if (r.columns.every((c) => c in row)) {
                    const before = Object.fromEntries(r.columns.map((c) => [c, row[c] ?? null]));
                    const after = Object.fromEntries(r.columns.map((c) => [c, updated?.[c] ?? changes[c]]));
                    undoStackOf(store.projectId).record({ kind: 'update', projectId: store.projectId, table: props.meta._tn, id: rowId, before, after });
                  }
                  return store.refreshRow(index);
                }),
              );
              setPicking(false);
            }}
            onClose={() => setPicking(false)}
          />
        ) : null}
      </div>
    );
  }

  /** Links or unlinks a target row; the change is one step of the user's undo. */
  const mmLink = async (x: Row, linked: boolean) => {
    const targetId = idOf(r.targetPks, x);
    await (linked ? recordsApi.link : recordsApi.unlink)(store.projectId, props.meta._tn, rowId, r.alias, targetId);
    undoStackOf(store.projectId).record({ kind: 'link', projectId: store.projectId, table: props.meta._tn, id: rowId, relation: r.alias, targetId, name: labelOf(r, x), linked });
  };
  const unlink = async (x: Row) => {
    try {
      await track(t('grid.relation.unlinking', { name: labelOf(r, x) }), mmLink(x, false).then(() => store.refreshRow(index)));
    } catch {
      // The error toast and the bell entry carry the server's message.
    }
  };
  return (
    <div className="relation-cell">
      {chips((value as Row[] | undefined) ?? [], props.readOnly ? undefined : unlink)}
      {!props.readOnly ? <button type="button" className="chip-add" aria-label={t('grid.relation.link', { table: r.table })} onClick={() => setPicking(true)}>+</button> : null}
      {picking ? (
        <RowPicker
          title={t('grid.relation.link', { table: r.table })}
          load={async (text) => (await recordsApi.notLinked(store.projectId, props.meta._tn, r.alias, rowId, { where: search(text), limit: 25 })).list}
          label={(x) => labelOf(r, x)}
          onPick={async (target) => {
            await track(t('grid.relation.linking', { name: labelOf(r, target) }), mmLink(target, true).then(() => store.refreshRow(index)));
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      ) : null}
    </div>
  );
}
