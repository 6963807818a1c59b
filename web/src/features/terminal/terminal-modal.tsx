/**
 * The terminal outside the dashboard: the `t` shortcut opens it in a modal over the page. Its
 * terminals are the same as the dashboard's (they keep running when the modal closes).
 * Ctrl+Shift+X closes the current terminal, and the modal with the last one; Esc stays with the
 * terminal (editors need it).
 */
import { useEffect } from 'react';
import { useSignals } from '../../stores/signals';
import { Button } from '../../components/form';
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
  return (
    <div className="dialog-backdrop" onClick={() => (terminalModalOpen.value = false)}>
      <div className="dialog terminal-dialog" role="dialog" aria-modal="true" aria-label="Terminal" onClick={(e) => e.stopPropagation()}>
        <div className="terminal-dialog-head">
          <h2>Terminal</h2>
          <Button variant="ghost" onClick={() => (terminalModalOpen.value = false)} title="Close the window; the terminals keep running (Ctrl+Shift+X closes the current terminal)">
            Close window
          </Button>
        </div>
        <TerminalPanel />
      </div>
    </div>
  );
}
