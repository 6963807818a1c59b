/**
 * Creating a view of one kind: its title and, by kind, the kanban's lane column, the calendar's
 * date (and optional end) column, the gallery's cover column. Copying a view asks the title only.
 */
import { useState } from 'react';
import type { ColumnMeta, TableMeta } from '../../api/dashboard';
import type { QueryParams, SavedView, ViewType } from '../../api/views';
import { AriaDialog } from '../../components/aria-dialog';
import { FormMessage } from '../../components/form';
import { coverColumns, dateColumns, kindProblem, laneColumns } from './view-kinds';
import { freeTitle, viewLabel, type ViewsStore } from './views-store';
import { typeLabel } from '../grid/type-icon';
import { t } from '../../i18n';

/** The dialog that creates (or copies) a view and hands it to `onDone`. */
export function CreateViewDialog(props: { store: ViewsStore; meta: TableMeta; type: ViewType; copyOf?: SavedView; onDone: (v: SavedView) => void; onClose: () => void }) {
  const { meta, type, copyOf } = props;
  const taken = props.store.list.value.map((v) => v.title);
  const [title, setTitle] = useState(freeTitle(copyOf ? t('views.create.copyTitle', { title: copyOf.title }) : viewLabel(type), taken));
  const lanes = laneColumns(meta.columns);
  const dates = dateColumns(meta.columns);
  const covers = coverColumns(meta.columns);
  const [groupBy, setGroupBy] = useState(lanes[0]?._cn ?? '');
  const [dateColumn, setDateColumn] = useState(dates[0]?._cn ?? '');
  const [endDateColumn, setEndDateColumn] = useState('');
  const [coverColumn, setCoverColumn] = useState(covers[0]?._cn ?? '');
  // A kind the table cannot have (a kanban without a select column...): said at once, and Create stays off.
  const kindBlocked = copyOf ? null : kindProblem(type, meta.columns, meta.type === 'table', meta.pks.length > 0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!title.trim()) return setError(t('views.create.titleNeeded'));
    if (taken.some((x) => x.toLowerCase() === title.trim().toLowerCase())) return setError(t('views.create.titleTaken', { title: title.trim() }));
    const problem = copyOf ? null : kindProblem(type, meta.columns, meta.type === 'table', meta.pks.length > 0);
    if (problem) return setError(problem);
    const qp: QueryParams = {};
    if (!copyOf && type === 'kanban') qp.groupBy = groupBy;
    if (!copyOf && type === 'calendar') Object.assign(qp, { dateColumn, ...(endDateColumn ? { endDateColumn } : {}) });
    if (!copyOf && type === 'gallery' && coverColumn) qp.coverColumn = coverColumn;
    setBusy(true);
    try {
      props.onDone(await props.store.create(copyOf?.type ?? type, title.trim(), copyOf, copyOf ? undefined : qp));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const pick = (label: string, value: string, set: (v: string) => void, cols: ColumnMeta[], none?: string) => (
    <div className="field">
      <label>
        {label}
        <select aria-label={label} value={value} onChange={(e) => set(e.target.value)}>
          {none !== undefined ? <option value="">{none}</option> : null}
          {cols.map((c) => <option key={c.cn} value={c._cn}>{c._cn} ({typeLabel(c.uidt)})</option>)}
        </select>
      </label>
    </div>
  );
  return (
    <AriaDialog
      heading={copyOf ? t('views.create.copyHeading', { title: copyOf.title }) : t('views.create.heading', { kind: viewLabel(type) })}
      onClose={props.onClose}
      onSubmit={() => void submit()}
      submitLabel={copyOf ? t('views.create.copy') : t('views.create.create')}
      busy={busy}
      submitDisabled={!!kindBlocked}
    >
      <div className="field">
        <label>
          {t('views.create.viewName')}
          <input aria-label={t('views.create.viewName')} value={title} autoFocus onChange={(e) => (setTitle(e.target.value), setError(null))} />
        </label>
      </div>
      {!copyOf && type === 'kanban' && lanes.length ? pick(t('views.create.lanesFrom'), groupBy, setGroupBy, lanes) : null}
      {!copyOf && type === 'calendar' && dates.length ? (
        <>
          {/* The end column is another one: picking it as the date leaves no end (the end list shows none then). */}
          {pick(t('views.create.dateColumn'), dateColumn, (v) => (setDateColumn(v), v === endDateColumn && setEndDateColumn('')), dates)}
          {pick(t('views.create.endDateColumn'), endDateColumn, setEndDateColumn, dates.filter((c) => c._cn !== dateColumn), t('views.create.noEndDate'))}
        </>
      ) : null}
      {!copyOf && type === 'gallery' ? pick(t('views.create.coverFrom'), coverColumn, setCoverColumn, covers, t('views.create.noCover')) : null}
      <FormMessage kind="error" text={error ?? kindBlocked} />
    </AriaDialog>
  );
}
