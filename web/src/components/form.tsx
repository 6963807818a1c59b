/** Form primitives: labelled text field with its error, buttons, a card for auth screens. */
import type { ReactNode } from 'react';
import { BrandMark } from '../features/app-store/brand';

/** A labelled input with its error below it (role alert), linked by aria-describedby. */
export function TextField(props: {
  label: string;
  type?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  autoFocus?: boolean;
  name?: string;
  placeholder?: string;
  /** What the browser and password managers may fill in (`current-password`, `new-password`, `email`). */
  autoComplete?: string;
}) {
  const id = `f-${props.name ?? props.label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autoFocus={props.autoFocus}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        aria-invalid={!!props.error}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {props.error}
        </div>
      ) : null}
    </div>
  );
}

/** A button in one of the theme's variants. */
export function Button(props: { children: ReactNode; onClick?: () => void; type?: 'button' | 'submit'; variant?: 'primary' | 'secondary' | 'danger' | 'ghost'; disabled?: boolean; title?: string }) {
  return (
    <button type={props.type ?? 'button'} className={`btn btn-${props.variant ?? 'primary'}`} onClick={props.onClick} disabled={props.disabled} title={props.title}>
      {props.children}
    </button>
  );
}

/** The centred card of the sign-in, sign-up and password screens. */
export function AuthCard(props: { title: string; subtitle?: ReactNode; children?: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-page">
      <div className="auth-card">
        <div className="auth-brand"><BrandMark size="page" /></div>
        <h1>{props.title}</h1>
        {props.subtitle ? <p className="muted">{props.subtitle}</p> : null}
        {props.children}
        {props.footer ? <div className="auth-footer">{props.footer}</div> : null}
      </div>
    </div>
  );
}

/** A server or form message above the submit button. */
export function FormMessage(props: { kind: 'error' | 'success'; text: string | null }) {
  if (!props.text) return null;
  return (
    <div className={`form-message form-message-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.text}
    </div>
  );
}
