/**
 * The form builder: heading, subheading, the fields (drag or ↑ ↓ to order, each with its label,
 * help text and required switch; add or remove them), the submit message and the redirect URL.
 * A column a new row cannot do without, left out of the form, is named at once: no answer to the
 * form could be saved (its shared link says so to the people who open it).
 */
import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Switch } from 'react-aria-components';
import { ChevronDown, GripVertical, Plus, X } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import type { FormField, FormSpec } from '../../api/views';
import { moveItem } from '../views/view-state';
import { formableColumns, formFields, safeRedirect } from './form-spec';
import { typeLabel } from '../grid/type-icon';
import { needsValue } from './create-rights';
import { localeTag, t } from '../../i18n';
import '../views/views-aria.css';

/** The builder of a form view; every change goes to `onChange` (saved in the view). */
export function FormBuilder(props: { spec: FormSpec; columns: ColumnMeta[]; onChange: (spec: FormSpec) => void }) {
  const { spec, columns } = props;
  const [dragging, setDragging] = useState<number | null>(null);
  const set = (patch: Partial<FormSpec>) => props.onChange({ ...spec, ...patch });
  // Fields whose column is gone are left out (they counted in ↑ ↓: the last field's ↓ did nothing).
  const fields = spec.fields.filter((f) => columns.some((c) => c._cn === f.cn || c.cn === f.cn));
  const setField = (i: number, patch: Partial<FormField>) => set({ fields: fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const used = new Set(formFields(spec, columns).map((x) => x.column._cn));
  const unused = formableColumns(columns).filter((c) => !used.has(c._cn));
  const redirectBad = !!spec.redirectUrl?.trim() && !safeRedirect(spec.redirectUrl);
  const missing = unused.filter(needsValue);
  return (
    <div className="form-builder" aria-label={t('views.form.builder')} role="region">
      <div className="field">
        <label htmlFor="fb-heading">{t('views.form.heading')}</label>
        <input id="fb-heading" value={spec.heading} onChange={(e) => set({ heading: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="fb-subheading">{t('views.form.subheading')}</label>
        <textarea id="fb-subheading" rows={2} value={spec.subheading} onChange={(e) => set({ subheading: e.target.value })} />
      </div>
      <h3 className="fb-section">{t('views.fields.fields')}</h3>
      {missing.length ? (
        <div className="field-error" role="alert">
          {t('views.form.missesNeeded', { columns: new Intl.ListFormat(localeTag(), { type: 'conjunction' }).format(missing.map((c) => c._cn)), count: missing.length })}
        </div>
      ) : null}
      <ol className="fb-fields">
        {fields.map((f, i) => {
          const column = columns.find((c) => c._cn === f.cn || c.cn === f.cn)!;
          return (
            <li
              key={f.cn}
              className={`fb-field${dragging === i ? ' dragging' : ''}`}
              draggable
              onDragStart={(e) => (setDragging(i), e.dataTransfer.setData('text/plain', f.cn))}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging !== null) set({ fields: moveItem(fields, dragging, i) });
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
              aria-label={t('views.form.field', { name: column._cn })}
            >
              <div className="fb-field-head">
                <GripVertical size={14} className="drag-handle" aria-hidden />
                <strong>{column._cn}</strong> <span className="grid-type">{typeLabel(column.uidt)}</span>
                <span className="field-moves">
                  <button type="button" aria-label={t('views.fields.moveUp', { name: column._cn })} disabled={i === 0} onClick={() => set({ fields: moveItem(fields, i, i - 1) })}>↑</button>
                  <button type="button" aria-label={t('views.fields.moveDown', { name: column._cn })} disabled={i === fields.length - 1} onClick={() => set({ fields: moveItem(fields, i, i + 1) })}>↓</button>
                  <button type="button" aria-label={t('views.form.remove', { name: column._cn })} onClick={() => set({ fields: fields.filter((_, j) => j !== i) })}><X size={13} /></button>
                </span>
              </div>
              <div className="fb-field-props">
                <input className="fb-label" aria-label={t('views.form.labelOf', { name: column._cn })} placeholder={t('views.form.labelPlaceholder', { name: column._cn })} value={f.label ?? ''} onChange={(e) => setField(i, { label: e.target.value || undefined })} />
                <input aria-label={t('views.form.helpOf', { name: column._cn })} placeholder={t('views.form.helpPlaceholder')} value={f.help ?? ''} onChange={(e) => setField(i, { help: e.target.value || undefined })} />
                <Switch className="views-switch" aria-label={t('views.form.isRequired', { name: column._cn })} isSelected={!!f.required} onChange={(required) => setField(i, { required })}>
                  <span className="switch-track" aria-hidden /> {t('views.form.required')}
                </Switch>
              </div>
            </li>
          );
        })}
      </ol>
      {unused.length ? (
        <MenuTrigger>
          <AriaButton className="btn btn-secondary fb-add">
            <Plus size={14} aria-hidden /> {t('views.form.addField')} <ChevronDown size={14} aria-hidden />
          </AriaButton>
          <Popover placement="bottom start" className="aria-popover">
            <Menu className="menu-list aria-menu" aria-label={t('views.form.addField')} onAction={(cn) => set({ fields: [...fields, { cn: String(cn) }] })}>
              {unused.map((c) => (
                <MenuItem key={c.cn} id={c._cn} className="menu-item">
                  {c._cn}
                </MenuItem>
              ))}
            </Menu>
          </Popover>
        </MenuTrigger>
      ) : null}
      <h3 className="fb-section">{t('views.form.after')}</h3>
      <div className="field">
        <label htmlFor="fb-message">{t('views.form.submitMessage')}</label>
        <textarea id="fb-message" rows={2} value={spec.submitMessage} onChange={(e) => set({ submitMessage: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="fb-redirect">{t('views.form.redirect')}</label>
        <input id="fb-redirect" placeholder={t('views.form.redirectPlaceholder')} value={spec.redirectUrl ?? ''} aria-invalid={redirectBad} onChange={(e) => set({ redirectUrl: e.target.value || undefined })} />
        {redirectBad ? <div className="field-error" role="alert">{t('views.form.redirectIgnored')}</div> : null}
      </div>
    </div>
  );
}
