/**
 * A kanban view in the dashboard: its toolbar (search, filters and sorts kept in the view, card
 * fields, lane column) and the board; a card opens into the row form.
 */
import { useLiveGeneration } from '../views/use-live';
import { useMemo, useState } from 'react';
import type { TableMeta } from '../../api/dashboard';
import { useSignals } from '../../stores/signals';
import { track } from '../../stores/notifications';
import { ExpandForm } from '../grid/expand-form';
import { gridColumns } from '../grid/grid-columns';
import { ViewQueryBar } from '../views/view-query-bar';
import { ViewFieldsMenu } from '../views/view-fields-menu';
import type { Row } from '../views/row-source';
import { rowIdOf, tableRowSource } from '../views/table-row-source';
import { CARD_FIELDS_BY_DEFAULT, cardFields, cardMenu, shownFields } from '../views/view-state';
import { laneColumns } from '../views/view-kinds';
import type { ViewBinding } from '../views/view-binding';
import { KanbanBoard } from './kanban-board';
import type { KanbanStore } from './kanban-store';
import { t } from '../../i18n';

/** The kanban view of a dashboard tab. */
export function Kanban(props: { projectId: string; dbAlias: string; meta: TableMeta; binding: ViewBinding }) {
  useSignals();
  const { meta, binding } = props;
  const qp = binding.view.query_params;
  // Another user's change (not the echo of this view's own) makes the source anew, so the view reads what it shows again.
  const live = useLiveGeneration(props.projectId, meta._tn, rowIdOf(meta));
  const source = useMemo(() => tableRowSource(props.projectId, meta), [props.projectId, meta, live]);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<{ row: Row; lane: string; store: KanbanStore } | null>(null);
  const columns = gridColumns(meta).filter((c) => !c.hidden);
  const fields = cardFields(columns.map((c) => c._cn), qp.fields, CARD_FIELDS_BY_DEFAULT.kanban, meta.pks);
  const lanes = laneColumns(meta.columns);
  const column = lanes.find((c) => c._cn === qp.groupBy || c.cn === qp.groupBy);
  const cards = cardMenu(fields, [column?._cn, qp.coverColumn]);
  const lanePicker = (
    <label className="toolbar-select">
      <span className="muted">{t('views.create.lanesFrom')}</span>
      <select aria-label={t('views.create.lanesFrom')} value={column?._cn ?? ''} disabled={!binding.canEdit} onChange={(e) => binding.change({ groupBy: e.target.value, laneOrder: undefined, collapsedLanes: undefined })}>
        {!column ? <option value="">{t('views.kanban.chooseColumn')}</option> : null}
        {lanes.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
      </select>
    </label>
  );
  return (
    <div className="view-body">
      <div className="grid-toolbar">
        <ViewQueryBar
          columns={columns}
          where={qp.where ?? ''}
          sort={qp.sort ?? ''}
          search={search}
          searchLabel={meta.displayColumn}
          onApply={(where, sort, s) => (setSearch(s), binding.change({ where, sort }))}
        />
        <ViewFieldsMenu label={t('views.card.fields')} fields={cards.menu} onChange={(f) => binding.change({ fields: cards.save(f) })} />
        {lanePicker}
      </div>
      {!column ? (
        <div className="empty-state">
          <h2>{t('views.kanban.pickTitle')}</h2>
          <p className="muted">{lanes.length ? t('views.kanban.pickText') : t('views.kanban.noLaneColumn', { table: meta._tn })}</p>
        </div>
      ) : (
        <KanbanBoard
          source={source}
          columns={columns}
          column={column}
          displayColumn={meta.displayColumn}
          qp={qp}
          fields={shownFields(cards.menu)}
          search={search}
          onChange={binding.change}
          onOpen={(row, lane, store) => setOpen({ row, lane, store })}
        />
      )}
      {open ? (
        <ExpandForm
          meta={meta}
          row={open.row}
          readOnly={!source.update}
          liveProject={props.projectId}
          onClose={() => setOpen(null)}
          onSave={async (changes) => {
            const saved = await track(t('views.card.saveRow'), source.update!(open.row, changes));
            open.store.replace(open.lane, open.row, saved);
            if (changes[open.store.column] !== undefined) open.store.reset();
            setOpen(null);
          }}
        />
      ) : null}
    </div>
  );
}
