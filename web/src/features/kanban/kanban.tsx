/**
 * A kanban view in the dashboard: its toolbar (search, filters and sorts kept in the view, card
 * fields, lane column) and the board; a card opens into the row form.
 */
import { useState } from 'react';
import { useSignals } from '../../stores/signals';
import type { Row } from '../views/row-source';
import { cardMenu, shownFields } from '../views/view-state';
import { laneColumns } from '../views/view-kinds';
import { CardRowForm, CardToolbar, namedColumn, useCardView, type CardViewProps } from '../views/card-view';
import { KanbanBoard } from './kanban-board';
import type { KanbanStore } from './kanban-store';
import { t } from '../../i18n';

/** The kanban view of a dashboard tab. */
export function Kanban(props: CardViewProps) {
  useSignals();
  const view = useCardView(props, 'kanban');
  const { meta, binding, qp, source } = view;
  const [open, setOpen] = useState<{ row: Row; lane: string; store: KanbanStore } | null>(null);
  const lanes = laneColumns(meta.columns);
  const column = namedColumn(lanes, qp.groupBy);
  const cards = cardMenu(view.fields, [column?._cn, qp.coverColumn]);
  return (
    <div className="view-body">
      <CardToolbar view={view} fieldsLabel={t('views.card.fields')} cards={cards}>
        <label className="toolbar-select">
          <span className="muted">{t('views.create.lanesFrom')}</span>
          <select aria-label={t('views.create.lanesFrom')} value={column?._cn ?? ''} disabled={!binding.canEdit} onChange={(e) => binding.change({ groupBy: e.target.value, laneOrder: undefined, collapsedLanes: undefined })}>
            {!column ? <option value="">{t('views.kanban.chooseColumn')}</option> : null}
            {lanes.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
          </select>
        </label>
      </CardToolbar>
      {!column ? (
        <div className="empty-state">
          <h2>{t('views.kanban.pickTitle')}</h2>
          <p className="muted">{lanes.length ? t('views.kanban.pickText') : t('views.kanban.noLaneColumn', { table: meta._tn })}</p>
        </div>
      ) : (
        <KanbanBoard
          source={source}
          columns={view.columns}
          column={column}
          displayColumn={meta.displayColumn}
          qp={qp}
          fields={shownFields(cards.menu)}
          search={view.search}
          onChange={binding.change}
          onOpen={(row, lane, store) => setOpen({ row, lane, store })}
        />
      )}
      {open ? (
        <CardRowForm
          projectId={props.projectId}
          dbAlias={props.dbAlias}
          meta={meta}
          source={source}
          row={open.row}
          onClose={() => setOpen(null)}
          onSaved={(saved, changes) => {
            open.store.replace(open.lane, open.row, saved);
            if (changes[open.store.column] !== undefined) open.store.reset();
          }}
        />
      ) : null}
    </div>
  );
}
