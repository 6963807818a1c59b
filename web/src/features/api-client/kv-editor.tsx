/** Rows of name, value and an enabled switch (params, headers, variables), with add and remove. */
import type { KeyValue } from './request-model';
import { VariableInput } from './variable-input';

export function KeyValueEditor(props: { label: string; rows: KeyValue[]; onChange: (rows: KeyValue[]) => void; variables?: string[] }) {
  const set = (i: number, patch: Partial<KeyValue>) => props.onChange(props.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="kv-editor" role="group" aria-label={props.label}>
      {props.rows.map((r, i) => (
        <div className="kv-row" key={i}>
          <input type="checkbox" aria-label={`Enable ${r.name || `row ${i + 1}`}`} checked={r.enabled} onChange={(e) => set(i, { enabled: e.target.checked })} />
          <input className="kv-name" aria-label={`${props.label} name ${i + 1}`} placeholder="name" value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
          <VariableInput className="kv-value" label={`${props.label} value ${i + 1}`} placeholder="value" value={r.value} onChange={(value) => set(i, { value })} variables={props.variables ?? []} />
          <button type="button" className="btn btn-ghost" aria-label={`Remove ${r.name || `row ${i + 1}`}`} onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}>×</button>
        </div>
      ))}
      <button type="button" className="btn btn-ghost" onClick={() => props.onChange([...props.rows, { name: '', value: '', enabled: true }])}>+ Add</button>
    </div>
  );
}
