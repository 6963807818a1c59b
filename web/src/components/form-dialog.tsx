/**
 * A modal form on react-aria (focus kept inside, Esc or a press outside cancels, focus returns to
 * the opener): heading, fields, Cancel and a submit button; Enter in a field submits.
 */
import type { FormEvent, ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './form';
import { t } from '../i18n';

/** The modal form; `busy` disables its submit button. */
export function FormDialog(props: { heading: string; children: ReactNode; onCancel: () => void; onSubmit: () => void; submitLabel?: string; busy?: boolean; wide?: boolean }) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onCancel()} className="dialog-backdrop">
      <Modal className={`dialog${props.wide ? ' dialog-wide' : ''}`}>
        <Dialog className="aria-dialog">
          <form noValidate onSubmit={submit}>
            <Heading slot="title">{props.heading}</Heading>
            {props.children}
            <div className="dialog-actions">
              <Button variant="secondary" onClick={props.onCancel}>{t('common.dialog.cancel')}</Button>
              <Button type="submit" disabled={props.busy}>{props.submitLabel ?? t('common.dialog.save')}</Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
