/** The options of a database column in the column form: length or precision, the type's options (choices, currency...), nullable, default, unique. */
import { TextField } from '../../components/form';
import { TypeMetaFields } from './type-meta-fields';
import type { ColumnDraft } from './column-draft';
import { typeOf } from './column-types';
import { t } from '../../i18n';
import { OnOff } from './aria-fields';

/** The type's options and the column's constraints; a key column keeps its nullability and uniqueness. */
export function TypeOptions(props: { draft: ColumnDraft; onChange: (d: ColumnDraft) => void; isKey?: boolean }) {
  const d = props.draft;
  const set = (patch: Partial<ColumnDraft>) => props.onChange({ ...d, ...patch });
  const type = typeOf(d.uidt);
  const options = type?.options ?? [];
  return (
    <div className="type-options">
      {type?.hint ? <p className="muted type-hint">{type.hint}</p> : null}
      {options.includes('length') ? <TextField label={t('schema.form.length')} name="col-length" value={d.dtxp} onChange={(v) => set({ dtxp: v })} placeholder="255" /* i18n-ignore */ /> : null}
      {options.includes('precision') ? <TextField label={t('schema.form.precisionScale')} name="col-precision" value={d.dtxp} onChange={(v) => set({ dtxp: v })} placeholder="10,2" /* i18n-ignore */ /> : null}
      <TypeMetaFields uidt={d.uidt} meta={d.meta} choices={d.choices} onChange={(meta) => set({ meta })} onChoices={(choices) => set({ choices })} />
      <TextField label={t('schema.form.defaultValue')} name="col-default" value={d.default} onChange={(v) => set({ default: v })} placeholder={d.uidt === 'DateTime' ? 'now' : ''} /* i18n-ignore: the keyword the server reads */ />
      <div className="check-row">
        <OnOff isSelected={d.nullable} isDisabled={props.isKey} onChange={(nullable) => set({ nullable })}>
          {t('schema.form.nullable')}
        </OnOff>
        <OnOff isSelected={d.unique} isDisabled={props.isKey} onChange={(unique) => set({ unique })}>
          {t('schema.form.unique')}
        </OnOff>
      </div>
      <TextField label={t('schema.form.sqlName')} name="col-sql-name" value={d.cn} onChange={(v) => set({ cn: v, cnTouched: true })} />
    </div>
  );
}
