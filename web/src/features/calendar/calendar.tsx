/**
 * A calendar view in the dashboard: its toolbar (search, filters kept in the view, entry fields,
 * date and end columns) and the board; the range (month, week, day) is kept in the view and the
 * day shown in this browser tab.
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
import { dateColumns } from '../views/view-kinds';
import type { ViewBinding } from '../views/view-binding';
import { CalendarBoard } from './calendar-board';
import type { CalendarStore } from './calendar-store';
import { today, type CalendarRange } from './calendar-range';
import { t } from '../../i18n';

/** The day a calendar shows, per view, for this browser tab. */
export function useAnchor(viewKey: string): [string, (d: string) => void] {
  const key = `tablo.calendar.${viewKey}`;
  const [anchor, setAnchor] = useState(() => sessionStorage.getItem(key) ?? today());
  return [anchor, (d: string) => (sessionStorage.setItem(key, d), setAnchor(d))];
}

/** The calendar view of a dashboard tab. */
export function Calendar(props: { projectId: string; dbAlias: string; meta: TableMeta; binding: ViewBinding }) {
  useSignals();
  const { meta, binding } = props;
  const qp = binding.view.query_params;
  // Another user's change (not the echo of this view's own) makes the source anew, so the view reads what it shows again.
  const live = useLiveGeneration(props.projectId, meta._tn, rowIdOf(meta));
  const source = useMemo(() => tableRowSource(props.projectId, meta), [props.projectId, meta, live]);
  const [search, setSearch] = useState('');
  const [anchor, setAnchor] = useAnchor(binding.view.id);
  const [open, setOpen] = useState<{ row: Row; store: CalendarStore } | null>(null);
  const columns = gridColumns(meta).filter((c) => !c.hidden);
  const fields = cardFields(columns.map((c) => c._cn), qp.fields, CARD_FIELDS_BY_DEFAULT.calendar, meta.pks);
  const dates = dateColumns(meta.columns);
  const dateColumn = dates.find((c) => c._cn === qp.dateColumn || c.cn === qp.dateColumn);
  const endColumn = dates.find((c) => c._cn === qp.endDateColumn || c.cn === qp.endDateColumn);
  const range: CalendarRange = qp.calendarRange ?? 'month';
  const entries = cardMenu(fields, [dateColumn?._cn, endColumn?._cn]);
  return (
    <div className="view-body">
      <div className="grid-toolbar">
        <ViewQueryBar columns={columns} where={qp.where ?? ''} sort={qp.sort ?? ''} search={search} searchLabel={meta.displayColumn} onApply={(where, sort, s) => (setSearch(s), binding.change({ where, sort }))} />
        <ViewFieldsMenu label={t('views.calendar.entryFields')} fields={entries.menu} onChange={(f) => binding.change({ fields: entries.save(f) })} />
        <label className="toolbar-select">
          <span className="muted">{t('views.calendar.date')}</span>
          <select aria-label={t('views.create.dateColumn')} value={dateColumn?._cn ?? ''} disabled={!binding.canEdit} onChange={(e) => binding.change({ dateColumn: e.target.value, ...(e.target.value === endColumn?._cn ? { endDateColumn: undefined } : {}) })}>
            {!dateColumn ? <option value="">{t('views.calendar.choose')}</option> : null}
            {dates.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
          </select>
        </label>
        <label className="toolbar-select">
          <span className="muted">{t('views.calendar.end')}</span>
          <select aria-label={t('views.create.endDateColumn')} value={endColumn?._cn ?? ''} disabled={!binding.canEdit} onChange={(e) => binding.change({ endDateColumn: e.target.value || undefined })}>
            <option value="">{t('views.calendar.noEnd')}</option>
            {dates.filter((c) => c._cn !== dateColumn?._cn).map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
          </select>
        </label>
      </div>
      {!dateColumn ? (
        <div className="empty-state">
          <h2>{t('views.calendar.pickTitle')}</h2>
          <p className="muted">{dates.length ? t('views.calendar.pickText') : t('views.calendar.noDateColumn', { table: meta._tn })}</p>
        </div>
      ) : (
        <CalendarBoard
          source={source}
          dateColumn={dateColumn}
          endColumn={endColumn}
          displayColumn={meta.displayColumn}
          fields={shownFields(entries.menu)}
          where={qp.where ?? ''}
          sort={qp.sort ?? ''}
          search={search}
          range={range}
          anchor={anchor}
          onRange={(r) => binding.change({ calendarRange: r })}
          onAnchor={setAnchor}
          onOpen={(row, store) => setOpen({ row, store })}
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
            open.store.replace(open.row, await track(t('views.card.saveRow'), source.update!(open.row, changes)));
            setOpen(null);
          }}
        />
      ) : null}
    </div>
  );
}
