/**
 * A calendar view in the dashboard: its toolbar (search, filters kept in the view, entry fields,
 * date and end columns) and the board; the range (month, week, day) is kept in the view and the
 * day shown in this browser tab.
 */
import { useState } from 'react';
import { useSignals } from '../../stores/signals';
import type { Row } from '../views/row-source';
import { cardMenu, shownFields } from '../views/view-state';
import { dateColumns } from '../views/view-kinds';
import { CardRowForm, CardToolbar, namedColumn, useCardView, type CardViewProps } from '../views/card-view';
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
export function Calendar(props: CardViewProps) {
  useSignals();
  const view = useCardView(props, 'calendar');
  const { meta, binding, qp, source } = view;
  const [anchor, setAnchor] = useAnchor(binding.view.id);
  const [open, setOpen] = useState<{ row: Row; store: CalendarStore } | null>(null);
  const dates = dateColumns(meta.columns);
  const dateColumn = namedColumn(dates, qp.dateColumn);
  const endColumn = namedColumn(dates, qp.endDateColumn);
  const range: CalendarRange = qp.calendarRange ?? 'month';
  const entries = cardMenu(view.fields, [dateColumn?._cn, endColumn?._cn]);
  return (
    <div className="view-body">
      <CardToolbar view={view} fieldsLabel={t('views.calendar.entryFields')} cards={entries}>
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
      </CardToolbar>
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
          search={view.search}
          range={range}
          anchor={anchor}
          onRange={(r) => binding.change({ calendarRange: r })}
          onAnchor={setAnchor}
          onOpen={(row, store) => setOpen({ row, store })}
        />
      )}
      {open ? <CardRowForm projectId={props.projectId} dbAlias={props.dbAlias} meta={meta} source={source} row={open.row} onClose={() => setOpen(null)} onSaved={(saved) => open.store.replace(open.row, saved)} /> : null}
    </div>
  );
}
