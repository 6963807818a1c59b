/**
 * Pickers of the column form that work across tables: Rollup and Lookup (relation, the related
 * table's column, the aggregate) and "Link to another record" (has many or many to many, the table).
 */
import { useEffect, useState } from 'react';
import { dashboardApi, type ColumnMeta, type TableMeta, type TableSummary } from '../../api/dashboard';
import type { DbScope } from '../../api/schema';
import type { ColumnDraft } from './column-draft';
import { ROLLUP_FNS } from './column-types';

const REL_LABEL = { hm: 'has many', bt: 'belongs to', mm: 'many to many' } as const;

/** Relation, column (and for Rollup the function) of a Rollup or Lookup column. */
export function RelationColumnPicker(props: { scope: DbScope; meta: TableMeta; draft: ColumnDraft; onChange: (d: ColumnDraft) => void }) {
  const d = props.draft;
  const rollup = d.uidt === 'Rollup';
  const relations = props.meta.relations.filter((r) => !(r.type === 'hm' && r.targetIsJunction) && (!rollup || r.type !== 'bt'));
  const relation = relations.find((r) => r.alias === d.relation);
  const [columns, setColumns] = useState<ColumnMeta[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setColumns(null);
    if (!relation) return;
    dashboardApi.tableMeta(props.scope.projectId, props.scope.dbAlias, relation.table).then((m) => setColumns(m.columns), (e) => setError((e as Error).message));
  }, [relation?.alias]);
  if (!relations.length) return <p className="form-message form-message-error">This table has no {rollup ? 'has-many or many-to-many ' : ''}relation yet: add a “Link to another record” column first.</p>;
  return (
    <div className="type-options">
      <div className="field">
        <label htmlFor="f-relation">Relation</label>
        <select id="f-relation" value={d.relation} onChange={(e) => props.onChange({ ...d, relation: e.target.value, column: '' })}>
          <option value="">Pick a relation…</option>
          {relations.map((r) => (
            <option key={r.alias} value={r.alias}>{r.table} ({REL_LABEL[r.type]})</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="f-rel-column">{rollup ? 'Column to roll up' : 'Column to look up'}</label>
        <select id="f-rel-column" value={d.column} disabled={!columns} onChange={(e) => props.onChange({ ...d, column: e.target.value })}>
          <option value="">{relation ? (columns ? 'Pick a column…' : 'Loading…') : 'Pick a relation first'}</option>
          {(columns ?? []).filter((c) => !c.hidden).map((c) => (
            <option key={c.cn} value={c._cn}>{c._cn}</option>
          ))}
        </select>
      </div>
      {rollup ? (
        <div className="field">
          <label htmlFor="f-rollup-fn">Aggregate</label>
          <select id="f-rollup-fn" value={d.fn} onChange={(e) => props.onChange({ ...d, fn: e.target.value })}>
            {ROLLUP_FNS.map((f) => (
              <option key={f} value={f}>{f}</option>
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
    dashboardApi.tables(props.scope.projectId, props.scope.dbAlias).then((l) => setTables(l.filter((t) => t.type === 'table' && !t.isJunction)), (e) => setError((e as Error).message));
  }, [props.scope.projectId, props.scope.dbAlias]);
  return (
    <div className="type-options">
      <fieldset className="field radio-row">
        <legend>Relation type</legend>
        <label className="check">
          <input type="radio" name="link-type" checked={d.linkType === 'hm'} onChange={() => props.onChange({ ...d, linkType: 'hm' })} /> Has many
        </label>
        <label className="check">
          <input type="radio" name="link-type" checked={d.linkType === 'mm'} onChange={() => props.onChange({ ...d, linkType: 'mm' })} /> Many to many
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="f-link-table">Table to link</label>
        <select id="f-link-table" value={d.linkTable} disabled={!tables} onChange={(e) => props.onChange({ ...d, linkTable: e.target.value, linkTitle: tables?.find((t) => t.tn === e.target.value)?._tn ?? e.target.value })}>
          <option value="">{tables ? 'Pick a table…' : 'Loading…'}</option>
          {(tables ?? []).map((t) => (
            <option key={t.tn} value={t.tn}>{t._tn}</option>
          ))}
        </select>
      </div>
      <p className="muted">
        {d.linkType === 'hm'
          ? `Each ${props.meta._tn} row has many rows of the other table: a foreign key column is added to that table.`
          : `Rows of ${props.meta._tn} and of the other table link both ways: a junction table is created.`}
      </p>
      {error ? <p className="field-error" role="alert">{error}</p> : null}
    </div>
  );
}
