/** A gallery view in the dashboard: its toolbar (search, filters and sorts, card fields, cover column) and the cards. */
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
import { coverColumns } from '../views/view-kinds';
import type { ViewBinding } from '../views/view-binding';
import type { PagedRows } from '../views/paged-rows';
import { GalleryBoard } from './gallery-board';
import { t } from '../../i18n';

/** The gallery view of a dashboard tab. */
export function Gallery(props: { projectId: string; dbAlias: string; meta: TableMeta; binding: ViewBinding }) {
  useSignals();
  const { meta, binding } = props;
  const qp = binding.view.query_params;
  // Another user's change (not the echo of this view's own) makes the source anew, so the view reads what it shows again.
  const live = useLiveGeneration(props.projectId, meta._tn, rowIdOf(meta));
  const source = useMemo(() => tableRowSource(props.projectId, meta), [props.projectId, meta, live]);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<{ row: Row; index: number; rows: PagedRows } | null>(null);
  const columns = gridColumns(meta).filter((c) => !c.hidden);
  const fields = cardFields(columns.map((c) => c._cn), qp.fields, CARD_FIELDS_BY_DEFAULT.gallery, meta.pks);
  const covers = coverColumns(meta.columns);
  const cover = covers.find((c) => c._cn === qp.coverColumn || c.cn === qp.coverColumn);
  const cards = cardMenu(fields, [cover?._cn]);
  return (
    <div className="view-body">
      <div className="grid-toolbar">
        <ViewQueryBar columns={columns} where={qp.where ?? ''} sort={qp.sort ?? ''} search={search} searchLabel={meta.displayColumn} onApply={(where, sort, s) => (setSearch(s), binding.change({ where, sort }))} />
        <ViewFieldsMenu label={t('views.card.fields')} fields={cards.menu} onChange={(f) => binding.change({ fields: cards.save(f) })} />
        <label className="toolbar-select">
          <span className="muted">{t('views.gallery.cover')}</span>
          <select aria-label={t('views.gallery.coverColumn')} value={cover?._cn ?? ''} disabled={!binding.canEdit} onChange={(e) => binding.change({ coverColumn: e.target.value || undefined })}>
            <option value="">{t('views.create.noCover')}</option>
            {covers.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
          </select>
        </label>
      </div>
      <GalleryBoard
        source={source}
        columns={columns}
        displayColumn={meta.displayColumn}
        coverColumn={cover?._cn}
        fields={shownFields(cards.menu)}
        where={qp.where ?? ''}
        sort={qp.sort ?? ''}
        search={search}
        onOpen={(row, index, rows) => setOpen({ row, index, rows })}
      />
      {open ? (
        <ExpandForm
          meta={meta}
          row={open.row}
          readOnly={!source.update}
          liveProject={props.projectId}
          onClose={() => setOpen(null)}
          onSave={async (changes) => {
            open.rows.set(open.index, await track(t('views.card.saveRow'), source.update!(open.row, changes)));
            setOpen(null);
          }}
        />
      ) : null}
    </div>
  );
}
