/**
 * The Terminal screen: a toolbar (new tab, clear, copy, paste, close; the saved command with run
 * and stop), the tabs 'Local (n)', and the active terminal sized to its tab. When the terminal is
 * off, or the caller is not the Super Admin, it says why and how to turn it on instead.
 */
import { useEffect, useRef, useState } from 'react';
import '@xterm/xterm/css/xterm.css';
import './terminal.css';
import { useSignals } from '../../stores/signals';
import { Button } from '../../components/form';
import { terminalStatus, type TerminalStatus } from './terminal-socket';
import {
  activeTerminal,
  clearTerminal,
  closeTerminal,
  copySelection,
  MAX_TERMINALS,
  mountTerminal,
  openTerminal,
  pasteClipboard,
  runSavedCommand,
  savedCommand,
  stopCommand,
  terminalTabs,
} from './terminal-store';

function TerminalView(props: { tabKey: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => mountTerminal(props.tabKey, host.current!), [props.tabKey]);
  return <div className="terminal-host" ref={host} />;
}

/** Why there is no terminal: turned off (with how to turn it on) or not the Super Admin. */
function TerminalOff(props: { status: TerminalStatus }) {
  const s = props.status;
  return (
    <div className="panel placeholder-panel terminal-off" role="region" aria-label="Terminal">
      <h2>Terminal</h2>
      {!s.enabled ? (
        <>
          <p>{s.reason}</p>
          <p>
            <strong>How to turn it on:</strong> {s.howToEnable}
          </p>
          <p className="muted">The terminal runs a shell on the server machine, for the Super Admin only. NC_DISABLE_TERMINAL (--disable-terminal) always keeps it off.</p>
        </>
      ) : (
        <p>{s.refusal ?? 'Only the Super Admin can open a terminal'}.</p>
      )}
    </div>
  );
}

export function TerminalPanel() {
  useSignals();
  const [status, setStatus] = useState<TerminalStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    terminalStatus().then(setStatus, (e) => setError((e as Error).message));
  }, []);
  const usable = !!status?.enabled && status.allowed;
  useEffect(() => {
    if (usable && terminalTabs.value.length === 0) openTerminal();
  }, [usable]);

  if (error) return <div className="form-message form-message-error">{error}</div>;
  if (!status) return <p className="muted">Loading the terminal…</p>;
  if (!usable) return <TerminalOff status={status} />;
  const active = activeTerminal.value;
  const activeTab = terminalTabs.value.find((t) => t.key === active);
  return (
    <div className="terminal-panel" role="region" aria-label="Terminal">
      <div className="terminal-toolbar" role="toolbar" aria-label="Terminal tools">
        <Button variant="secondary" onClick={openTerminal} title={`New terminal (Ctrl+Shift+Enter); up to ${MAX_TERMINALS}`}>
          + New terminal
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && clearTerminal(active)} title="Clear the screen">
          Clear
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && void copySelection(active)} title="Copy the selection (Ctrl+Shift+C)">
          Copy
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && void pasteClipboard(active)} title="Paste (Ctrl+Shift+V or Ctrl+V)">
          Paste
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && closeTerminal(active)} title="Close this terminal and end what runs in it">
          Close
        </Button>
        <span className="terminal-toolbar-gap" />
        <label className="terminal-command">
          <span>Saved command</span>
          <input value={savedCommand.value} onChange={(e) => (savedCommand.value = e.target.value)} aria-label="Saved command" spellCheck={false} />
        </label>
        <Button variant="primary" disabled={!active || activeTab?.state !== 'open' || !savedCommand.value.trim()} onClick={() => active && runSavedCommand(active)} title="Run the saved command in this terminal">
          Run
        </Button>
        <Button variant="secondary" disabled={!active || activeTab?.state !== 'open'} onClick={() => active && stopCommand(active)} title="Stop what runs (Ctrl-C)">
          Stop
        </Button>
      </div>
      <div className="terminal-tabs" role="tablist" aria-label="Terminals">
        {terminalTabs.value.map((t) => (
          <div key={t.key} className={`terminal-tab${t.key === active ? ' active' : ''}${t.state === 'ended' ? ' ended' : ''}`} role="tab" aria-selected={t.key === active}>
            <button className="terminal-tab-title" onClick={() => (activeTerminal.value = t.key)} title={t.message ?? t.state}>
              {t.name}
              {t.state === 'connecting' || t.state === 'reconnecting' ? <span className="terminal-tab-state"> · {t.state}…</span> : null}
            </button>
            <button className="terminal-tab-close" aria-label={`Close ${t.name}`} onClick={() => closeTerminal(t.key)}>
              ×
            </button>
          </div>
        ))}
      </div>
      {active ? (
        <TerminalView key={active} tabKey={active} />
      ) : (
        <div className="terminal-empty muted">
          No terminal is open. <Button variant="ghost" onClick={openTerminal}>Open one</Button>
        </div>
      )}
      {activeTab?.state === 'ended' && activeTab.message ? <div className="terminal-ended muted">Ended: {activeTab.message}</div> : null}
    </div>
  );
}
