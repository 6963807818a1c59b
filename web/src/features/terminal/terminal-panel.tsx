/**
 * The Terminal screen: a toolbar (new tab, clear, copy, paste, close; the saved command with run
 * and stop), the tabs 'Local (n)', and the active terminal sized to its tab. When the terminal is
 * off, or the caller is not the Super Admin, it says why and how to turn it on instead.
 */
import { useEffect, useId, useRef, useState } from 'react';
import '@xterm/xterm/css/xterm.css';
import './terminal.css';
import { useSignals } from '../../stores/signals';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Button } from '../../components/form';
import { locale, t, tx } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { TabCloseButton, TabCloseHint, closeKeys } from '../api-client/tip-button';
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
  type TerminalTab,
} from './terminal-store';

function TerminalView(props: { tabKey: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => mountTerminal(props.tabKey, host.current!), [props.tabKey]);
  return <div className="terminal-host" ref={host} />;
}

/** Why there is no terminal: turned off (with how to turn it on) or not the Super Admin. */
function TerminalOff(props: { status: TerminalStatus }) {
  useSignals();
  const s = props.status;
  // The server says why in English; the reader reads it in their language.
  const said = (text: string) => translateServerMessage(text, locale.value);
  return (
    <div className="panel placeholder-panel terminal-off" role="region" aria-label={t('tools.terminal.title')}>
      <h2>{t('tools.terminal.title')}</h2>
      {!s.enabled ? (
        <>
          <p>{said(s.reason)}</p>
          <p>{tx('tools.terminal.howToEnable', { how: said(s.howToEnable), b: (chunks) => <strong>{chunks}</strong> })}</p>
          <p className="muted">{t('tools.terminal.offNote')}</p>
        </>
      ) : (
        <p>{s.refusal ? t('tools.terminal.refusal', { reason: said(s.refusal) }) : t('tools.terminal.superAdminOnly')}</p>
      )}
    </div>
  );
}

export function TerminalPanel() {
  useSignals();
  const closeHintId = useId();
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
  if (!status) return <p className="muted">{t('tools.terminal.loading')}</p>;
  if (!usable) return <TerminalOff status={status} />;
  const active = activeTerminal.value;
  const activeTab = terminalTabs.value.find((tab) => tab.key === active);
  const stateText = (state: TerminalTab['state']) => t('tools.terminal.state', { state });
  return (
    <div className="terminal-panel" role="region" aria-label={t('tools.terminal.title')}>
      <div className="terminal-toolbar" role="toolbar" aria-label={t('tools.terminal.tools')}>
        <Button variant="secondary" onClick={openTerminal} title={t('tools.terminal.newTip', { count: MAX_TERMINALS })}>
          {t('tools.terminal.new')}
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && clearTerminal(active)} title={t('tools.terminal.clearTip')}>
          {t('tools.terminal.clear')}
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && void copySelection(active)} title={t('tools.terminal.copyTip')}>
          {t('tools.terminal.copy')}
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && void pasteClipboard(active)} title={t('tools.terminal.pasteTip')}>
          {t('tools.terminal.paste')}
        </Button>
        <Button variant="ghost" disabled={!active} onClick={() => active && closeTerminal(active)} title={t('tools.terminal.closeTip')}>
          {t('tools.terminal.close')}
        </Button>
        <span className="terminal-toolbar-gap" />
        <label className="terminal-command">
          <span>{t('tools.terminal.savedCommand')}</span>
          <input value={savedCommand.value} onChange={(e) => (savedCommand.value = e.target.value)} aria-label={t('tools.terminal.savedCommand')} spellCheck={false} />
        </label>
        <Button variant="primary" disabled={!active || activeTab?.state !== 'open' || !savedCommand.value.trim()} onClick={() => active && runSavedCommand(active)} title={t('tools.terminal.runTip')}>
          {t('tools.terminal.run')}
        </Button>
        <Button variant="secondary" disabled={!active || activeTab?.state !== 'open'} onClick={() => active && stopCommand(active)} title={t('tools.terminal.stopTip')}>
          {t('tools.terminal.stop')}
        </Button>
      </div>
      {active ? (
        <Tabs className="terminal-tabpanel" selectedKey={active} onSelectionChange={(k) => (activeTerminal.value = String(k))}>
          <div onKeyDown={closeKeys(() => closeTerminal(active))}>
            <TabCloseHint id={closeHintId} />
            <TabList className="terminal-tabs" aria-label={t('tools.terminal.tabsLabel')}>
              {terminalTabs.value.map((tab) => (
                <Tab
                  key={tab.key}
                  id={tab.key}
                  aria-label={tab.name}
                  aria-describedby={closeHintId}
                  className={({ isSelected }) => `terminal-tab${isSelected ? ' active' : ''}${tab.state === 'ended' ? ' ended' : ''}`}
                >
                  <span className="terminal-tab-title" title={tab.message ?? stateText(tab.state)}>
                    {tab.name}
                    {tab.state === 'connecting' || tab.state === 'reconnecting' ? <span className="terminal-tab-state"> · {stateText(tab.state)}</span> : null}
                  </span>
                  <TabCloseButton className="terminal-tab-close" label={t('tools.terminal.closeTab', { name: tab.name })} onClose={() => closeTerminal(tab.key)} />
                </Tab>
              ))}
            </TabList>
          </div>
          <TabPanel id={active} className="terminal-tabpanel">
            <TerminalView key={active} tabKey={active} />
            {activeTab?.state === 'ended' && activeTab.message ? <div className="terminal-ended muted">{t('tools.terminal.ended', { reason: activeTab.message })}</div> : null}
          </TabPanel>
        </Tabs>
      ) : (
        <div className="terminal-empty muted">
          {t('tools.terminal.none')} <Button variant="ghost" onClick={openTerminal}>{t('tools.terminal.openOne')}</Button>
        </div>
      )}
    </div>
  );
}
