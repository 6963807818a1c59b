/** A modal form: heading, fields, Cancel and a submit button; Esc cancels, Enter in a field submits. */
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Button } from './form';

/** The modal form; `busy` disables its submit button. */
export function FormDialog(props: { heading: string; children: ReactNode; onCancel: () => void; onSubmit: () => void; submitLabel?: string; busy?: boolean; wide?: boolean }) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // Esc belongs to the dialog that has the focus (a confirm step may open above this form).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && (e.target === document.body || ref.current?.contains(e.target as Node))) props.onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [props.onCancel]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  const id = `dlg-${props.heading.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="dialog-backdrop" onClick={props.onCancel}>
      <form ref={ref} className={`dialog${props.wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={id} noValidate onSubmit={submit} onClick={(e) => e.stopPropagation()}>
        <h2 id={id}>{props.heading}</h2>
        {props.children}
        <div className="dialog-actions">
          <Button variant="secondary" onClick={props.onCancel}>Cancel</Button>
          <Button type="submit" disabled={props.busy}>{props.submitLabel ?? 'Save'}</Button>
        </div>
      </form>
    </div>
  );
}
