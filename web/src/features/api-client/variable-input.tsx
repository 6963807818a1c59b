/**
 * A text input that knows the environment's variables: typing `{{` opens a menu of them (filtered by
 * what follows), arrows choose, Enter or a click inserts `{{name}}`, Escape closes; names the
 * environment lacks are marked as invalid.
 */
import { useId, useRef, useState } from 'react';
import { t } from '../../i18n';
import { applySuggestion, suggestionQuery, variableNames } from './request-model';

export function VariableInput(props: { value: string; onChange: (v: string) => void; variables: string[]; label: string; placeholder?: string; className?: string; onEnter?: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const id = useId();
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const options = query === null ? [] : props.variables.filter((v) => v.toLowerCase().startsWith(query.toLowerCase()));
  const missing = variableNames(props.value).filter((n) => !props.variables.includes(n));

  const update = (text: string, caret: number) => {
    props.onChange(text);
    setQuery(suggestionQuery(text, caret));
    setActive(0);
  };
  const choose = (name: string) => {
    const el = ref.current!;
    const next = applySuggestion(props.value, el.selectionStart ?? props.value.length, name);
    props.onChange(next.text);
    setQuery(null);
    requestAnimationFrame(() => el.setSelectionRange(next.caret, next.caret));
  };

  return (
    <span className={`variable-input ${props.className ?? ''}`}>
      <input
        ref={ref}
        aria-label={props.label}
        aria-invalid={missing.length > 0}
        title={missing.length ? t('tools.vars.notInEnvironment', { names: missing.join(', ') }) : undefined}
        placeholder={props.placeholder}
        value={props.value}
        role="combobox"
        aria-expanded={options.length > 0}
        aria-autocomplete="list"
        aria-controls={options.length ? `${id}-menu` : undefined}
        aria-activedescendant={options.length ? `${id}-opt-${active}` : undefined}
        aria-describedby={missing.length ? `${id}-missing` : undefined}
        onChange={(e) => update(e.target.value, e.target.selectionStart ?? e.target.value.length)}
        onBlur={() => setTimeout(() => setQuery(null), 150)}
        onKeyDown={(e) => {
          if (options.length) {
            if (e.key === 'ArrowDown') return e.preventDefault(), setActive((a) => (a + 1) % options.length);
            if (e.key === 'ArrowUp') return e.preventDefault(), setActive((a) => (a - 1 + options.length) % options.length);
            if (e.key === 'Enter' || e.key === 'Tab') return e.preventDefault(), choose(options[active]!);
            if (e.key === 'Escape') return e.preventDefault(), setQuery(null);
          }
          if (e.key === 'Enter') props.onEnter?.();
        }}
      />
      {options.length ? (
        <ul className="variable-menu" id={`${id}-menu`} role="listbox" aria-label={t('tools.vars.menu')}>
          {options.map((o, i) => (
            <li key={o} id={`${id}-opt-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : ''} onMouseDown={(e) => (e.preventDefault(), choose(o))}>
              {o}
            </li>
          ))}
        </ul>
      ) : null}
      {missing.length ? <span className="field-error variable-missing" id={`${id}-missing`}>{t('tools.vars.unknown', { count: missing.length, names: missing.join(', ') })}</span> : null}
    </span>
  );
}
