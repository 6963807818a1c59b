/**
 * Pickers of the column form that work across tables: Rollup and Lookup (relation, the related
 * table's column, the aggregate) and "Link to another record" (has many or many to many, the table).
 */
import { useEffect, useState } from 'react';
import { dashboardApi, type ColumnMeta, type TableMeta, type TableSummary } from '../../api/dashboard';
import type { DbScope } from '../../api/schema';
import type { ColumnDraft } from './column-draft';
import { ROLLUP_FNS, rollupLabel } from './column-types';
import { t } from '../../i18n';
import { PickCombo } from './aria-fields';
import type { RelationMeta } from '../../api/dashboard';
import { useLatest } from '../../components/use-latest-answer';

/** 'Orders (has many)': a relation as the picker names it. */
function relationLabel(r: RelationMeta): string {
  if (r.type === 'hm') return t('schema.relation.hasManyOf', { table: r.table });
  if (r.type === 'bt') return t('schema.relation.belongsToOf', { table: r.table });
  return t('schema.relation.manyToManyOf', { table: r.table });
}

/** Relation, column (and for Rollup the function) of a Rollup or Lookup column. */
export function RelationColumnPicker(props: { scope: DbScope; meta: TableMeta; draft: ColumnDraft; onChange: (d: ColumnDraft) => void }) {
  const d = props.draft;
  const rollup = d.uidt === 'Rollup';
  const relations = props.meta.relations.filter((r) => !(r.type === 'hm' && r.targetIsJunction) && (!rollup || r.type !== 'bt'));
  const relation = relations.find((r) => r.alias === d.relation);
  const [columns, setColumns] = useState<ColumnMeta[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The columns of the relation picked last (an earlier pick answered late is dropped).
  const latest = useLatest();
  useEffect(() => {
    setColumns(null);
    if (!relation) return latest.drop();
    void latest(dashboardApi.tableMeta(props.scope.projectId, props.scope.dbAlias, relation.table), (m) => setColumns(m.columns), (e) => setError(e.message));
  }, [relation?.alias]);
  if (!relations.length) return <p className="form-message form-message-error">{rollup ? t('schema.relation.noneForRollup') : t('schema.relation.none')}</p>;
  return (
    <div className="type-options">
      <div className="field">
        <label htmlFor="f-relation">{t('schema.relation.label')}</label>
        <select id="f-relation" value={d.relation} onChange={(e) => props.onChange({ ...d, relation: e.target.value, column: '' })}>
          <option value="">{t('schema.relation.pick')}</option>
          {relations.map((r) => (
            <option key={r.alias} value={r.alias}>{relationLabel(r)}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="f-rel-column">{rollup ? t('schema.relation.columnToRollUp') : t('schema.relation.columnToLookUp')}</label>
        <select id="f-rel-column" value={d.column} disabled={!columns} onChange={(e) => props.onChange({ ...d, column: e.target.value })}>
          <option value="">{relation ? (columns ? t('schema.relation.pickColumn') : t('schema.relation.loading')) : t('schema.relation.pickRelationFirst')}</option>
          {(columns ?? []).filter((c) => !c.hidden).map((c) => (
            <option key={c.cn} value={c._cn}>{c._cn}</option>
          ))}
        </select>
      </div>
      {rollup ? (
        <div className="field">
          <label htmlFor="f-rollup-fn">{t('schema.relation.aggregate')}</label>
          <select id="f-rollup-fn" value={d.fn} onChange={(e) => props.onChange({ ...d, fn: e.target.value })}>
            {ROLLUP_FNS.map((f) => (
              <option key={f} value={f}>{rollupLabel(f)}</option>
            ))}
          </select>
        </div>
      ) : null}
      {error ? <p className="field-error" role="alert">{error}</p> : null}
    </div>
  );
}

/** Has many or many to many, and the other table, of a new relation. */
export function LinkPicker(props: { scope: DbScope; meta: TableMeta; draft: ColumnDraft; onChange: (d: ColumnDraft) => void }) {
  const d = props.draft;
  const [tables, setTables] = useState<TableSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    dashboardApi.tables(props.scope.projectId, props.scope.dbAlias).then((l) => setTables(l.filter((x) => x.type === 'table' && !x.isJunction)), (e) => setError((e as Error).message));
  }, [props.scope.projectId, props.scope.dbAlias]);
  return (
    <div className="type-options">
      <fieldset className="field radio-row">
        <legend>{t('schema.relation.type')}</legend>
        <label className="check">
          <input type="radio" name="link-type" checked={d.linkType === 'hm'} onChange={() => props.onChange({ ...d, linkType: 'hm' })} /> {t('schema.relation.hasMany')}
        </label>
        <label className="check">
          <input type="radio" name="link-type" checked={d.linkType === 'mm'} onChange={() => props.onChange({ ...d, linkType: 'mm' })} /> {t('schema.relation.manyToMany')}
        </label>
      </fieldset>
      <PickCombo
        label={t('schema.relation.tableToLink')}
        value={d.linkTable}
        items={(tables ?? []).map((x) => ({ id: x.tn, label: x._tn }))}
        isDisabled={!tables}
        placeholder={tables ? t('schema.relation.pickTable') : t('schema.relation.loading')}
        openLabel={t('schema.relation.showTables')}
        onChange={(tn) => props.onChange({ ...d, linkTable: tn, linkTitle: tables?.find((x) => x.tn === tn)?._tn ?? tn })}
      />
      <p className="muted">
        {d.linkType === 'hm'
          ? t('schema.relation.hasManyNote', { table: props.meta._tn })
          : t('schema.relation.manyToManyNote', { table: props.meta._tn })}
      </p>
      {error ? <p className="field-error" role="alert">{error}</p> : null}
    </div>
  );
}
