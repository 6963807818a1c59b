/**
 * A modal dialog on react-aria-components (focus kept inside, Esc closes, focus returns to the
 * opener), in the look of the app's dialogs. `onSubmit` makes it a form (Enter submits).
 */
import type { FormEvent, ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './form';
import { t } from '../i18n';

/** The dialog; `onSubmit` adds the submit button (Enter submits). */
export function AriaDialog(props: {
  heading: string;
  onClose: () => void;
  children: ReactNode;
  onSubmit?: () => void;
  submitLabel?: string;
  submitVariant?: 'primary' | 'danger';
  busy?: boolean;
  /** The submit button is shown but cannot be used (what stops it is said in the dialog). */
  submitDisabled?: boolean;
  closeLabel?: string;
  wide?: boolean;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.busy && !props.submitDisabled) props.onSubmit?.();
  };
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="dialog-backdrop">
      <Modal className={`dialog${props.wide ? ' dialog-wide' : ''}`}>
        <Dialog className="aria-dialog">
          <form onSubmit={submit} noValidate>
            <Heading slot="title">{props.heading}</Heading>
            {props.children}
            <div className="dialog-actions">
              <Button variant="secondary" onClick={props.onClose}>{props.closeLabel ?? (props.onSubmit ? t('common.dialog.cancel') : t('common.dialog.close'))}</Button>
              {props.onSubmit ? (
                <Button type="submit" variant={props.submitVariant ?? 'primary'} disabled={props.busy || props.submitDisabled}>
                  {props.submitLabel ?? t('common.dialog.save')}
                </Button>
              ) : null}
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
