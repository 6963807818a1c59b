/** Rows of name, value and an enabled switch (params, headers, variables), with add and remove. */
import { t } from '../../i18n';
import type { KeyValue } from './request-model';
import { VariableInput } from './variable-input';
import { TipButton } from './tip-button';
import { ToolsSwitch } from './tools-switch';

export function KeyValueEditor(props: { label: string; rows: KeyValue[]; onChange: (rows: KeyValue[]) => void; variables?: string[] }) {
  const set = (i: number, patch: Partial<KeyValue>) => props.onChange(props.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const rowName = (r: KeyValue, i: number) => r.name || t('tools.kv.row', { n: i + 1 });
  return (
    <div className="kv-editor" role="group" aria-label={props.label}>
      {props.rows.map((r, i) => (
        <div className="kv-row" key={i}>
          <ToolsSwitch label={t('tools.kv.enable', { name: rowName(r, i) })} isSelected={r.enabled} onChange={(enabled) => set(i, { enabled })} />
          <input className="kv-name" aria-label={t('tools.kv.nameLabel', { label: props.label, n: i + 1 })} placeholder={t('tools.kv.namePlaceholder')} value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
          <VariableInput className="kv-value" label={t('tools.kv.valueLabel', { label: props.label, n: i + 1 })} placeholder={t('tools.kv.valuePlaceholder')} value={r.value} onChange={(value) => set(i, { value })} variables={props.variables ?? []} />
          <TipButton className="btn btn-ghost" label={t('tools.kv.remove', { name: rowName(r, i) })} onPress={() => props.onChange(props.rows.filter((_, j) => j !== i))}>×</TipButton>
        </div>
      ))}
      <button type="button" className="btn btn-ghost" onClick={() => props.onChange([...props.rows, { name: '', value: '', enabled: true }])}>{t('tools.kv.add')}</button>
    </div>
  );
}
