/** The spinner overlay (until project info is loaded), toasts, and the confirm dialog. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Dialog,
  Heading,
  Modal,
  ModalOverlay,
  UNSTABLE_Toast as AriaToast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
  Button as AriaButton,
  Text,
} from 'react-aria-components';
import { dismissToast, toasts, type Toast } from '../stores/toasts';
import { effect } from '../stores/signals';
import { t } from '../i18n';
import { Button } from './form';

/** Covers the page until the server's project info has loaded. */
export function SpinnerOverlay() {
  return (
    <div className="spinner-overlay" role="progressbar" aria-label={t('common.loading')}>
      <div className="spinner" />
    </div>
  );
}

/**
 * The toasts on screen, mirrored from the store into react-aria's queue: the store keeps their
 * timing and de-duplication, the queue gives the region (a landmark reached with F6) and the
 * announcements.
 */
const queue = new ToastQueue<Toast>({ maxVisibleToasts: 5 });
const queued = new Map<number, string>();
effect(() => {
  const now = toasts.value;
  const ids = new Set(now.map((x) => x.id));
  for (const [id, key] of queued) {
    if (ids.has(id)) continue;
    queued.delete(id);
    queue.close(key);
  }
  for (const x of now) if (!queued.has(x.id)) queued.set(x.id, queue.add(x, { onClose: () => dismissToast(x.id) }));
});

/** Toasts at the top centre; clicks pass through them to the toolbar they cover. */
export function ToastHost() {
  return (
    <ToastRegion queue={queue} className="toasts" aria-label={t('common.toast.region')} style={{ pointerEvents: 'none' }}>
      {({ toast: queuedToast }) => {
        const x = queuedToast.content;
        return (
        <AriaToast toast={queuedToast} className={`toast toast-${x.kind}`}>
          <ToastContent className="toast-content">
            <Text slot="title">{x.text}</Text>
          </ToastContent>
          {x.action ? (
            <AriaButton className="toast-action" style={{ pointerEvents: 'auto' }} onPress={() => (dismissToast(x.id), x.action!.run())}>
              {x.action.label}
            </AriaButton>
          ) : null}
        </AriaToast>
        );
      }}
    </ToastRegion>
  );
}

/** Heading, body, Cancel and Submit; Esc (or a press outside) cancels, Enter submits. */
export function ConfirmDialog(props: { heading: string; children?: ReactNode; onCancel: () => void; onSubmit: () => void; submitLabel?: string; wide?: boolean }) {
  // Enter submits from anywhere in the dialog but a button, a link or a multi-line field (they keep their own Enter).
  const [dialog, setDialog] = useState<HTMLElement | null>(null);
  const submit = useRef(props.onSubmit);
  submit.current = props.onSubmit;
  useEffect(() => {
    if (!dialog) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key !== 'Enter' || e.defaultPrevented || target.closest('button, a, textarea, [role="button"]')) return;
      e.preventDefault();
      submit.current();
    };
    dialog.addEventListener('keydown', onKey);
    return () => dialog.removeEventListener('keydown', onKey);
  }, [dialog]);
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onCancel()} className="dialog-backdrop">
      <Modal className={`dialog${props.wide ? ' dialog-wide' : ''}`}>
        <Dialog className="aria-dialog confirm-dialog" ref={setDialog}>
          <Heading slot="title">{props.heading}</Heading>
          {props.children}
          <div className="dialog-actions">
            <Button variant="secondary" onClick={props.onCancel}>
              {t('common.dialog.cancel')}
            </Button>
            <Button variant="danger" onClick={props.onSubmit}>
              {props.submitLabel ?? t('common.dialog.submit')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
