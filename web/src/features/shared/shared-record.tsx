/**
 * One row of a shared view opened read-only: every column the link shows, each value whole (a
 * grid cell, a card or a calendar entry shows only part of it). Opened from a shared grid's row,
 * a card of a shared gallery or kanban, or an entry of a shared calendar.
 */
import { useState } from 'react';
import type { SharedViewMeta } from '../../api/shared';
import { AriaDialog } from '../../components/aria-dialog';
import { CellView } from '../grid/grid-cell';
import { cardTitle } from '../views/record-card';
import type { Row } from '../views/row-source';
import { t } from '../../i18n';

/** The dialog of one shared row. */
export function SharedRecord(props: { meta: SharedViewMeta; row: Row; displayColumn: string | null; onClose: () => void }) {
  const names = props.meta.columns.map((c) => c._cn);
  return (
    <AriaDialog heading={cardTitle(props.row, props.displayColumn, names)} onClose={props.onClose} wide>
      <dl className="shared-record" aria-label={t('views.shared.recordFields')}>
        {props.meta.columns.map((c) => {
          const value = props.row[c._cn];
          return (
            <div key={c.cn} className="shared-record-field">
              <dt>{c._cn}</dt>
              <dd>{value === null || value === undefined || value === '' ? <span className="muted">–</span> : <CellView column={c} value={value} readOnly onToggle={() => {}} onSet={() => {}} />}</dd>
            </div>
          );
        })}
      </dl>
    </AriaDialog>
  );
}

/** The row open in a shared view's dialog (null: none), and the function that opens one. */
export function useSharedRecord(meta: SharedViewMeta, displayColumn: string | null) {
  const [open, setOpen] = useState<Row | null>(null);
  const dialog = open ? <SharedRecord meta={meta} row={open} displayColumn={displayColumn} onClose={() => setOpen(null)} /> : null;
  return { openRow: setOpen, dialog };
}
