/** The spinner overlay (until project info is loaded), toasts, and the confirm dialog. */
import { useEffect, useRef, type ReactNode } from 'react';
import { dismissToast, toasts } from '../stores/toasts';
import { useSignals } from '../stores/signals';
import { Button } from './form';

/** Covers the page until the server's project info has loaded. */
export function SpinnerOverlay() {
  return (
    <div className="spinner-overlay" role="progressbar" aria-label="Loading">
      <div className="spinner" />
    </div>
  );
}

/** Toasts at the top centre; clicks pass through them to the toolbar they cover. */
export function ToastHost() {
  useSignals();
  return (
    <div className="toasts" aria-live="polite" style={{ pointerEvents: 'none' }}>
      {toasts.value.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          {t.action ? <span>{t.text}</span> : t.text}
          {t.action ? (
            <button type="button" className="toast-action" style={{ pointerEvents: 'auto' }} onClick={() => (dismissToast(t.id), t.action!.run())}>
              {t.action.label}
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}

/** Heading, body, Cancel and Submit; Esc cancels, Enter submits. */
export function ConfirmDialog(props: { heading: string; children?: ReactNode; onCancel: () => void; onSubmit: () => void; submitLabel?: string; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onCancel();
      if (e.key === 'Enter') {
        e.preventDefault();
        props.onSubmit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [props.onCancel, props.onSubmit]);
  return (
    <div className="dialog-backdrop" onClick={props.onCancel}>
      <div className={`dialog${props.wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby="confirm-heading" tabIndex={-1} ref={ref} onClick={(e) => e.stopPropagation()}>
        <h2 id="confirm-heading">{props.heading}</h2>
        {props.children}
        <div className="dialog-actions">
          <Button variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={props.onSubmit}>
            {props.submitLabel ?? 'Submit'}
          </Button>
        </div>
      </div>
    </div>
  );
}
