/** The choices of a select column in the column form: a title and a colour each, added, renamed, recoloured and removed. */
import { useState } from 'react';
import type { SelectChoice } from '../../api/dashboard';
import { parseChoices } from './column-types';
import { CHOICE_COLORS } from './type-meta-draft';
import { t } from '../../i18n';
import { TipButton } from '../tree/tip-button';

/** Edits the list; text pasted into "New option" with several lines or commas adds one choice per item. */
export function ChoiceListEditor(props: { value: SelectChoice[]; onChange: (v: SelectChoice[]) => void }) {
  const list = props.value;
  const [text, setText] = useState('');
  const set = (i: number, patch: Partial<SelectChoice>) => props.onChange(list.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const add = () => {
    const titles = parseChoices(text).filter((title) => !list.some((o) => o.title === title));
    if (!titles.length) return;
    props.onChange([...list, ...titles.map((title, k) => ({ title, color: CHOICE_COLORS[(list.length + k) % CHOICE_COLORS.length]! }))]);
    setText('');
  };
  return (
    <fieldset className="field choice-list">
      <legend>{t('schema.choices.legend')}</legend>
      {list.map((o, i) => (
        <div key={i} className="choice-row">
          <input type="color" value={o.color} onChange={(e) => set(i, { color: e.target.value })} aria-label={o.title ? t('schema.choices.colourOf', { name: o.title }) : t('schema.choices.colourOfOption', { number: i + 1 })} />
          <input type="text" value={o.title} onChange={(e) => set(i, { title: e.target.value })} aria-label={t('schema.choices.option', { number: i + 1 })} />
          <TipButton className="btn btn-ghost" onPress={() => props.onChange(list.filter((_, j) => j !== i))} label={o.title ? t('schema.choices.remove', { name: o.title }) : t('schema.choices.removeOption', { number: i + 1 })}>
            <span aria-hidden>✕</span>
          </TipButton>
        </div>
      ))}
      <div className="choice-row">
        <input
          type="text"
          value={text}
          placeholder={t('schema.choices.newOption')}
          aria-label={t('schema.choices.newOption')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn btn-secondary" onClick={add}>
          {t('schema.choices.add')}
        </button>
      </div>
    </fieldset>
  );
}
