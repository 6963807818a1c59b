/** A gallery view in the dashboard: its toolbar (search, filters and sorts, card fields, cover column) and the cards. */
import { useState } from 'react';
import { useSignals } from '../../stores/signals';
import type { Row } from '../views/row-source';
import { cardMenu, shownFields } from '../views/view-state';
import { coverColumns } from '../views/view-kinds';
import type { PagedRows } from '../views/paged-rows';
import { CardRowForm, CardToolbar, namedColumn, useCardView, type CardViewProps } from '../views/card-view';
import { GalleryBoard } from './gallery-board';
import { t } from '../../i18n';

/** The gallery view of a dashboard tab. */
export function Gallery(props: CardViewProps) {
  useSignals();
  const view = useCardView(props, 'gallery');
  const { meta, binding, qp, source } = view;
  const [open, setOpen] = useState<{ row: Row; index: number; rows: PagedRows } | null>(null);
  const covers = coverColumns(meta.columns);
  const cover = namedColumn(covers, qp.coverColumn);
  const cards = cardMenu(view.fields, [cover?._cn]);
  return (
    <div className="view-body">
      <CardToolbar view={view} fieldsLabel={t('views.card.fields')} cards={cards}>
        <label className="toolbar-select">
          <span className="muted">{t('views.gallery.cover')}</span>
          <select aria-label={t('views.gallery.coverColumn')} value={cover?._cn ?? ''} disabled={!binding.canEdit} onChange={(e) => binding.change({ coverColumn: e.target.value || undefined })}>
            <option value="">{t('views.create.noCover')}</option>
            {covers.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
          </select>
        </label>
      </CardToolbar>
      <GalleryBoard
        source={source}
        columns={view.columns}
        displayColumn={meta.displayColumn}
        coverColumn={cover?._cn}
        fields={shownFields(cards.menu)}
        where={qp.where ?? ''}
        sort={qp.sort ?? ''}
        search={view.search}
        onOpen={(row, index, rows) => setOpen({ row, index, rows })}
      />
      {open ? <CardRowForm projectId={props.projectId} dbAlias={props.dbAlias} meta={meta} source={source} row={open.row} onClose={() => setOpen(null)} onSaved={(saved) => open.rows.set(open.index, saved)} /> : null}
    </div>
  );
}
