/**
 * A hook's condition: the grid's filter rows (column, operator, value) joined with AND, or the
 * where language typed out (Where… / Builder), as the grid's query toolbar does.
 */
import { useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { Button } from '../../components/form';
import { t } from '../../i18n';
import { TipButton } from './tip-button';
import { FILTER_OPS, fromWhere, opsFor, toWhere, type FilterRow } from '../grid/query-builder';

export function ConditionBuilder(props: { columns: ColumnMeta[]; value: string; onChange: (where: string) => void }) {
  const parsed = fromWhere(props.value);
  const [raw, setRaw] = useState(parsed === null);
  const [rows, setRows] = useState<FilterRow[]>(parsed ?? []);
  const set = (next: FilterRow[]) => {
    setRows(next);
    props.onChange(toWhere(next));
  };
  // The operators a column takes, as in the grid's filters; a column change keeps the operator when the new column takes it.
  const opsOf = (name: string) => opsFor(props.columns.find((c) => c._cn === name));
  const opOf = (name: string, op: string) => (opsOf(name).some((o) => o.op === op) ? op : 'eq');
  return (
    <fieldset className="hook-condition">
      <legend>{t('admin.hooks.conditionLegend')}</legend>
      {raw ? (
        <input className="grid-where" aria-label={t('admin.hooks.condition')} placeholder={t('admin.hooks.conditionPlaceholder')} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <>
          {rows.map((f, i) => (
            <span key={i} className="query-row">
              <select aria-label={t('admin.hooks.conditionColumn', { n: i + 1 })} value={f.column} onChange={(e) => set(rows.map((x, j) => (j === i ? { ...x, column: e.target.value, op: opOf(e.target.value, x.op) } : x)))}>
                <option value="">{t('admin.hooks.columnPlaceholder')}</option>
                {props.columns.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
              </select>
              <select aria-label={t('admin.hooks.conditionOperator', { n: i + 1 })} value={f.op} onChange={(e) => set(rows.map((x, j) => (j === i ? { ...x, op: e.target.value } : x)))}>
                {opsOf(f.column).map((o) => <option key={o.op} value={o.op}>{o.label}</option>)}
              </select>
              {FILTER_OPS.find((o) => o.op === f.op)?.needsValue ? (
                <input aria-label={t('admin.hooks.conditionValue', { n: i + 1 })} value={f.value} onChange={(e) => set(rows.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
              ) : null}
              <TipButton className="chip-x" label={t('admin.hooks.removeCondition', { n: i + 1 })} onPress={() => set(rows.filter((_, j) => j !== i))}><span aria-hidden>×</span></TipButton>
            </span>
          ))}
          <Button variant="ghost" onClick={() => setRows([...rows, { column: '', op: 'eq', value: '' }])}>{t('admin.hooks.addCondition')}</Button>
        </>
      )}
      <Button
        variant="ghost"
        onClick={() => {
          if (raw) {
            const back = fromWhere(props.value);
            if (back) setRows(back);
            setRaw(back === null);
          } else setRaw(true);
        }}
      >
        {raw ? t('admin.hooks.builder') : t('admin.hooks.whereMode')}
      </Button>
    </fieldset>
  );
}
