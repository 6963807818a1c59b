/**
 * The terminal outside the dashboard: the `t` shortcut opens it in a modal over the page (react-aria
 * Modal and Dialog: focus kept inside and given back to the opener). Its terminals are the same as the
 * dashboard's (they keep running when the modal closes). Ctrl+Shift+X closes the current terminal,
 * and the modal with the last one; Esc stays with the terminal (editors need it) while one is open, and closes
 * the modal when none is (the terminal turned off, or all closed).
 */
import { useEffect } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSignals } from '../../stores/signals';
import { Button } from '../../components/form';
import { t } from '../../i18n';
import { activeTerminal, closeTerminal, terminalModalOpen, terminalTabs } from './terminal-store';
import { TerminalPanel } from './terminal-panel';

export function TerminalModal() {
  useSignals();
  const open = terminalModalOpen.value;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 'x')) return;
      // Captured before the terminal sees it, so no ^X reaches the shell.
      e.preventDefault();
      e.stopPropagation();
      if (activeTerminal.value) closeTerminal(activeTerminal.value);
      if (terminalTabs.value.length === 0) terminalModalOpen.value = false;
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);
  if (!open) return null;
  const close = () => (terminalModalOpen.value = false);
  return (
    <ModalOverlay isOpen isDismissable isKeyboardDismissDisabled={terminalTabs.value.length > 0} onOpenChange={(o) => !o && close()} className="dialog-backdrop">
      <Modal className="dialog terminal-dialog">
        <Dialog className="terminal-dialog-body" aria-label={t('tools.terminal.title')}>
          <div className="terminal-dialog-head">
            <Heading slot="title">{t('tools.terminal.title')}</Heading>
            <Button variant="ghost" onClick={close} title={t('tools.terminal.closeWindowTip')}>
              {t('tools.terminal.closeWindow')}
            </Button>
          </div>
          <TerminalPanel />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
