/**
 * What the gallery, kanban and calendar views share: the row source read anew on other people's
 * changes, the search, the visible columns and card fields, the toolbar's query bar and fields menu,
 * and the row form a card opens into.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { TableMeta } from '../../api/dashboard';
import { reportError, track } from '../../stores/notifications';
import { ExpandForm } from '../grid/expand-form';
import { relationKey } from '../grid/relation-cell';
import type { ParentSource } from '../form/form-parent';
import { recordsApi } from '../../api/records';
import { useCanComment } from './view-rights';
import { gridColumns } from '../grid/grid-columns';
import { useLiveGeneration } from './use-live';
import { ViewQueryBar } from './view-query-bar';
import { ViewFieldsMenu } from './view-fields-menu';
import type { Row, RowSource } from './row-source';
import { rowIdOf, tableRowSource } from './table-row-source';
import { CARD_FIELDS_BY_DEFAULT, cardFields, type cardMenu } from './view-state';
import type { ViewBinding } from './view-binding';
import { t } from '../../i18n';

/** The props every card view takes from its dashboard tab. */
export interface CardViewProps {
  projectId: string;
  dbAlias: string;
  meta: TableMeta;
  binding: ViewBinding;
}

/** The state of a card view: its source, search, visible columns and card fields. */
export function useCardView(props: CardViewProps, kind: keyof typeof CARD_FIELDS_BY_DEFAULT) {
  const { meta, binding } = props;
  const qp = binding.view.query_params;
  // Another user's change (not the echo of this view's own) makes the source anew, so the view reads what it shows again.
  const live = useLiveGeneration(props.projectId, meta._tn, rowIdOf(meta));
  const source = useMemo(() => tableRowSource(props.projectId, meta), [props.projectId, meta, live]);
  const [search, setSearch] = useState('');
  const columns = gridColumns(meta).filter((c) => !c.hidden);
  const fields = cardFields(columns.map((c) => c._cn), qp.fields, CARD_FIELDS_BY_DEFAULT[kind], meta.pks);
  return { meta, binding, qp, source, search, setSearch, columns, fields };
}

export type CardView = ReturnType<typeof useCardView>;

/** The column a view's setting names (by API or SQL name) among `among`. */
export const namedColumn = <C extends { cn: string; _cn: string }>(among: C[], name: string | undefined) => among.find((c) => c._cn === name || c.cn === name);

/** The toolbar of a card view, in two rows as the grid's: the search, filters and sorts kept in the view; then the card fields and the view's own pickers. */
export function CardToolbar(props: { view: CardView; fieldsLabel: string; cards: ReturnType<typeof cardMenu>; children?: ReactNode }) {
  const { view, cards } = props;
  return (
    <>
      <div className="grid-toolbar">
        <ViewQueryBar
          columns={view.columns}
          where={view.qp.where ?? ''}
          sort={view.qp.sort ?? ''}
          search={view.search}
          searchLabel={view.meta.displayColumn}
          onApply={(where, sort, s) => (view.setSearch(s), view.binding.change({ where, sort }))}
        />
      </div>
      <div className="grid-toolbar grid-toolbar-actions">
        <ViewFieldsMenu label={props.fieldsLabel} fields={cards.menu} onChange={(f) => view.binding.change({ fields: cards.save(f) })} />
        {props.children}
      </div>
    </>
  );
}

/**
 * The row a card opened, in the row form the grid expands a row into (following the row's changes by
 * others): files uploaded and listed, parents picked by title, comments and history; `onSaved` puts
 * the row as saved (or with a file just uploaded) back where the view keeps it.
 */
export function CardRowForm(props: { projectId: string; dbAlias: string; meta: TableMeta; source: RowSource; row: Row; onClose: () => void; onSaved: (saved: Row, changes: Row) => void }) {
  const { source, meta } = props;
  // The row as it is now: a file uploaded here is listed at once (the form's file list reads it).
  const [row, setRow] = useState(props.row);
  const canComment = useCanComment(props.projectId);
  const parents: ParentSource = { relations: meta.relations, list: (table, where) => recordsApi.list(props.projectId, table, { limit: 25, offset: 0, where }) };
  // A card's row comes without its parents: the form opens at once with the card's row, and the row is
  // read with them, so a key shows its parent's title (as in the grid) when the read answers.
  const belongsTo = meta.relations.filter((r) => r.type === 'bt');
  useEffect(() => {
    if (!belongsTo.length || !meta.pks.length) return;
    let open = true;
    const where = meta.pks.map((pk) => `(${pk},eq,${String(props.row[pk])})`).join('~and');
    recordsApi
      .list(props.projectId, meta._tn, { limit: 1, offset: 0, where, bt: belongsTo.map((r) => r.alias).join(',') })
      .then(
        ([found]) => open && found && setRow((r) => ({ ...r, ...Object.fromEntries(belongsTo.map(relationKey).filter((k) => k in found).map((k) => [k, found[k]])) })),
        // Without them the form still works: a key shows as itself.
        (x) => open && reportError(t('views.card.readParents'), (x as Error).message),
      );
    return () => void (open = false);
  }, []);
  return (
    <ExpandForm
      meta={meta}
      row={row}
      readOnly={!source.update}
      parents={parents}
      activity={{ projectId: props.projectId, dbAlias: props.dbAlias, pk: source.idOf(props.row), canComment }}
      onClose={props.onClose}
      // An uploaded file is in the row already: the card shows it (a gallery's cover) without a save.
      onUploaded={(column, value) => {
        const now = { ...row, [column]: value };
        setRow(now);
        props.onSaved(now, {});
      }}
      onSave={async (changes) => {
        props.onSaved(await track(t('views.card.saveRow'), source.update!(row, changes)), changes);
        props.onClose();
      }}
    />
  );
}
