/**
 * The options of the chosen type in the column form: currency code and locale, decimal places,
 * rating maximum and icon, duration format, choices with colours, attachment limits, a date-time set
 * to the time of each change.
 */
import { TextField } from '../../components/form';
import type { SelectChoice } from '../../api/dashboard';
import { LIMITS } from '../../lib/limits';
import { ChoiceListEditor } from './choice-list-editor';
import { currencyCodes, DURATION_FORMATS, ratingIcons, type TypeMetaDraft } from './type-meta-draft';
import { t } from '../../i18n';
import { OnOff } from './aria-fields';

/** A labelled select of the form. */
function Pick(props: { label: string; name: string; value: string; options: [string, string][]; onChange: (v: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={`f-${props.name}`}>{props.label}</label>
      <select id={`f-${props.name}`} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map(([v, label]) => (
          <option key={v} value={v}>{label}</option>
        ))}
      </select>
    </div>
  );
}

/** The fields of the type's options; nothing for types without options. */
export function TypeMetaFields(props: { uidt: string; meta: TypeMetaDraft; choices: SelectChoice[]; onChange: (m: TypeMetaDraft) => void; onChoices: (c: SelectChoice[]) => void }) {
  const m = props.meta;
  const set = (patch: Partial<TypeMetaDraft>) => props.onChange({ ...m, ...patch });
  const places = <TextField label={t('schema.form.decimalPlaces')} name="col-places" value={m.places} onChange={(v) => set({ places: v })} placeholder="2" />;
  switch (props.uidt) {
    case 'Currency':
      return (
        <div className="meta-row">
          <Pick label={t('schema.form.currency')} name="col-currency" value={m.currency} options={currencyCodes().map((c) => [c, c])} onChange={(v) => set({ currency: v })} />
          <TextField label={t('schema.form.locale')} name="col-locale" value={m.locale} onChange={(v) => set({ locale: v })} placeholder="en-US" /* i18n-ignore */ />
          {places}
        </div>
      );
    case 'Percent':
    case 'Decimal':
      return <div className="meta-row">{places}</div>;
    case 'Rating':
      return (
        <div className="meta-row">
          <Pick label={t('schema.form.maxRating')} name="col-rating-max" value={m.max} options={Array.from({ length: LIMITS.ratingMax }, (_, i) => [String(i + 1), String(i + 1)])} onChange={(v) => set({ max: v })} />
          <Pick label={t('schema.form.icon')} name="col-rating-icon" value={m.icon} options={ratingIcons()} onChange={(v) => set({ icon: v })} />
        </div>
      );
    case 'Duration':
      return (
        <div className="meta-row">
          <Pick label={t('schema.form.durationFormat')} name="col-duration" value={m.format} options={DURATION_FORMATS.map((f) => [f, f])} onChange={(v) => set({ format: v })} />
        </div>
      );
    case 'DateTime':
      return (
        <div className="check-row">
          <OnOff isSelected={m.touch} onChange={(touch) => set({ touch })}>
            {t('schema.form.touch')}
          </OnOff>
        </div>
      );
    case 'SingleSelect':
    case 'MultiSelect':
      return <ChoiceListEditor value={props.choices} onChange={props.onChoices} />;
    case 'Attachment':
      return (
        <div className="meta-row">
          <TextField label={t('schema.form.maxFiles')} name="col-max-files" value={m.maxFiles} onChange={(v) => set({ maxFiles: v })} placeholder={t('schema.form.noLimit')} />
          <TextField label={t('schema.form.acceptedTypes')} name="col-accept" value={m.accept} onChange={(v) => set({ accept: v })} placeholder="image/*, .pdf" /* i18n-ignore */ />
        </div>
      );
    default:
      return null;
  }
}
