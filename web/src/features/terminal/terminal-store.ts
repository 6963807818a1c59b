/**
 * The browser's terminals: up to 5 tabs 'Local (n)', each an xterm.js Terminal (with the fit
 * add-on) on its own socket. They live here, outside React, so switching dashboard tabs or
 * closing the modal keeps them running; the panel only shows one. A dropped socket reconnects to
 * the same shell for 30 s; the tabs survive a reload of the page (sessionStorage) the same way.
 * Signing out closes them all.
 */
import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { effect, signal } from '../../stores/signals';
import { user } from '../../stores/session';
import { darkTheme } from '../../stores/settings';
import { toast } from '../../stores/toasts';
import { t } from '../../i18n';
import { openSocket, terminalStatus } from './terminal-socket';
import { FlowControl } from './flow-control';

export const MAX_TERMINALS = 5;
/** 'Only 5 terminals can be opened' in the current language. */
export const msgMaxTerminals = () => t('tools.terminal.maxTerminals', { count: MAX_TERMINALS });
export const msgOpenFailed = () => t('tools.terminal.openFailed');
/** How long a dropped socket tries to come back to its shell (the server waits as long). */
const RECONNECT_MS = 30_000;
const STORAGE_KEY = 'tablo.terminals';
const COMMAND_KEY = 'tablo.terminal.command';

/** One tab of the terminal screen as the UI shows it. */
export interface TerminalTab {
  key: string;
  name: string;
  state: 'connecting' | 'open' | 'reconnecting' | 'ended';
  /** Why it ended. */
  message?: string;
}

export const terminalTabs = signal<TerminalTab[]>([]);
export const activeTerminal = signal<string | null>(null);
/** The terminal modal (outside the dashboard, the `t` shortcut opens it). */
export const terminalModalOpen = signal(false);
/** The saved command the toolbar runs and stops. */
export const savedCommand = signal<string>(localStorage.getItem(COMMAND_KEY) ?? 'npm install');
effect(() => localStorage.setItem(COMMAND_KEY, savedCommand.value));

export const LIGHT_THEME: ITheme = { background: '#ffffff', foreground: '#0f172a', cursor: '#2563eb', cursorAccent: '#ffffff', selectionBackground: '#bfdbfe', black: '#0f172a', brightBlack: '#64748b' };
export const DARK_THEME: ITheme = { background: '#0b1120', foreground: '#e5e7eb', cursor: '#93c5fd', cursorAccent: '#0b1120', selectionBackground: '#1e3a8a', white: '#e5e7eb', brightWhite: '#ffffff' };

interface Live {
  key: string;
  term: Terminal;
  fit: FitAddon;
  element: HTMLDivElement;
  flow: FlowControl;
  ws: WebSocket | null;
  serverId: string | null;
  opened: boolean;
  closing: boolean;
  reconnectUntil: number;
  /** Restored after a reload: its screen is empty, so the server replays the newest output. */
  fresh: boolean;
}

const lives = new Map<string, Live>();
const encoder = new TextEncoder();
let counter = 0;

const update = (key: string, patch: Partial<TerminalTab>) => (terminalTabs.value = terminalTabs.value.map((t) => (t.key === key ? { ...t, ...patch } : t)));

function persist(): void {
  const list = terminalTabs.value.filter((t) => t.state !== 'ended').map((t) => ({ name: t.name, serverId: lives.get(t.key)?.serverId ?? null }));
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(list.filter((t) => t.serverId)));
}

/** The lowest free number for a new 'Local (n)'. */
function nextName(): string {
  const used = new Set(terminalTabs.value.map((tab) => tab.name));
  let n = 1;
  while (used.has(t('tools.terminal.tabName', { n }))) n++;
  return t('tools.terminal.tabName', { n });
}

function send(live: Live, data: string | Uint8Array | object): void {
  if (live.ws?.readyState !== WebSocket.OPEN) return;
  if (typeof data === 'string') live.ws.send(encoder.encode(data));
  else if (data instanceof Uint8Array) live.ws.send(data as Uint8Array<ArrayBuffer>);
  else live.ws.send(JSON.stringify(data));
}

function ended(live: Live, reason: string): void {
  live.ws = null;
  update(live.key, { state: 'ended', message: reason });
  live.term.write(`\r\n\x1b[2m[${t('tools.terminal.endedLine', { reason })}]\x1b[0m\r\n`);
  persist();
}

/** Connects a terminal's socket (a new shell, or its own again after a drop or reload). */
function connect(live: Live): void {
  const again = !!live.serverId;
  const ws = openSocket({ cols: live.term.cols, rows: live.term.rows }, live.serverId, live.fresh);
  live.ws = ws;
  live.flow.reset();
  let opened = false;
  ws.onopen = () => (opened = true);
  ws.onmessage = (e) => {
    if (typeof e.data !== 'string') {
      const bytes = new Uint8Array(e.data as ArrayBuffer);
      live.term.write(bytes, live.flow.written(bytes.length));
      return;
    }
    const m = JSON.parse(e.data) as { type: string; id?: string; reason?: string };
    if (m.type === 'ready') {
      live.serverId = m.id ?? null;
      live.reconnectUntil = 0;
      live.fresh = false;
      update(live.key, { state: 'open', message: undefined });
      send(live, { type: 'resize', cols: live.term.cols, rows: live.term.rows });
      persist();
    } else if (m.type === 'exit') ended(live, m.reason ?? t('tools.terminal.endedReason'));
  };
  ws.onclose = (e) => {
    if (live.closing || live.ws !== ws) return;
    if (e.code === 4000 || e.code === 4001) return ended(live, e.reason || t('tools.terminal.endedReason'));
    if (!opened && !again) {
      // A refused upgrade: the status route says why (turned off, not the Super Admin, five open).
      void terminalStatus().then(
        (s) => ended(live, !s.enabled ? s.reason : !s.allowed ? (s.refusal ?? t('tools.terminal.notAllowed')) : s.open >= s.maxTerminals ? t('tools.terminal.maxTerminalsElsewhere', { count: MAX_TERMINALS }) : msgOpenFailed()),
        () => ended(live, msgOpenFailed()),
      );
      toast('error', msgOpenFailed(), 5000);
      return;
    }
    live.reconnectUntil ||= Date.now() + RECONNECT_MS;
    if (Date.now() > live.reconnectUntil) return ended(live, t('tools.terminal.connectionLost'));
    update(live.key, { state: 'reconnecting' });
    setTimeout(() => !live.closing && connect(live), 1000);
  };
}

function create(name: string, serverId: string | null): string {
  const key = `term-${++counter}`;
  const term = new Terminal({
    cursorBlink: true,
    fontSize: 13,
    fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
    scrollback: 5000,
    theme: darkTheme.value ? DARK_THEME : LIGHT_THEME,
    allowProposedApi: false,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  const element = document.createElement('div');
  element.className = 'terminal-screen';
  element.dataset.terminal = name;
  const live: Live = { key, term, fit, element, ws: null, serverId, opened: false, closing: false, reconnectUntil: 0, fresh: !!serverId, flow: new FlowControl((m) => send(live, m)) };
  term.onData((d) => send(live, d));
  term.onBinary((d) => send(live, Uint8Array.from(d, (c) => c.charCodeAt(0))));
  term.onResize(({ cols, rows }) => send(live, { type: 'resize', cols, rows }));
  term.attachCustomKeyEventHandler((e) => {
    if (e.type !== 'keydown' || !e.ctrlKey || !e.shiftKey) return true;
    const k = e.key.toLowerCase();
    if (k === 'c') void copySelection(key);
    else if (k === 'v') void pasteClipboard(key);
    else if (e.key === 'Enter') openTerminal();
    else return true;
    e.preventDefault();
    return false;
  });
  lives.set(key, live);
  terminalTabs.value = [...terminalTabs.value, { key, name, state: 'connecting' }];
  activeTerminal.value = key;
  // Connected at once (80x24 until it is shown and fitted), so a restored tab gets back to its shell in time.
  connect(live);
  return key;
}

/** Opens a new terminal tab; at the sixth, says 'Only 5 terminals can be opened'. */
export function openTerminal(): void {
  if (terminalTabs.value.length >= MAX_TERMINALS) {
    toast('error', msgMaxTerminals(), 5000);
    return;
  }
  create(nextName(), null);
}

/** Shows a terminal in `host` (connecting it the first time); answers the function that hides it. */
export function mountTerminal(key: string, host: HTMLElement): () => void {
  const live = lives.get(key);
  if (!live) return () => {};
  host.appendChild(live.element);
  if (!live.opened) {
    live.term.open(live.element);
    live.opened = true;
    live.fit.fit();
  }
  const refit = () => {
    if (host.clientWidth > 0 && host.clientHeight > 0) live.fit.fit();
  };
  const observer = new ResizeObserver(refit);
  observer.observe(host);
  refit();
  live.term.focus();
  return () => {
    observer.disconnect();
    live.element.remove();
  };
}

/** Closes a tab: the server ends its process group. */
export function closeTerminal(key: string): void {
  const live = lives.get(key);
  if (!live) return;
  live.closing = true;
  send(live, { type: 'close' });
  live.ws?.close(1000, 'closed');
  live.term.dispose();
  lives.delete(key);
  const rest = terminalTabs.value.filter((t) => t.key !== key);
  terminalTabs.value = rest;
  if (activeTerminal.value === key) activeTerminal.value = rest.at(-1)?.key ?? null;
  persist();
}

export const clearTerminal = (key: string) => lives.get(key)?.term.clear();

/** Types the saved command and Enter into the terminal. */
export function runSavedCommand(key: string): void {
  const live = lives.get(key);
  if (!live || !savedCommand.value.trim()) return;
  send(live, savedCommand.value + '\r');
  live.term.focus();
}

/** Stops what runs in the terminal (Ctrl-C). */
export function stopCommand(key: string): void {
  const live = lives.get(key);
  if (live) send(live, '\x03');
}

/** Copies the selection to the clipboard. */
export async function copySelection(key: string): Promise<void> {
  const text = lives.get(key)?.term.getSelection() ?? '';
  if (!text) return toast('info', t('tools.terminal.selectToCopy'));
  try {
    await navigator.clipboard.writeText(text);
    toast('success', t('tools.terminal.copied'));
  } catch {
    toast('error', t('tools.terminal.copyRefused'));
  }
}

/** Pastes the clipboard into the terminal (as xterm's paste: bracketed when the shell asks). */
export async function pasteClipboard(key: string): Promise<void> {
  const live = lives.get(key);
  if (!live) return;
  try {
    live.term.paste(await navigator.clipboard.readText());
    live.term.focus();
  } catch {
    toast('error', t('tools.terminal.pasteRefused'));
  }
}

// The app's dark and light themes.
effect(() => {
  const theme = darkTheme.value ? DARK_THEME : LIGHT_THEME;
  for (const live of lives.values()) live.term.options.theme = theme;
});

// Signing out closes every terminal (the server ends them as well).
let signedIn = false;
effect(() => {
  const now = !!user.value;
  if (signedIn && !now) for (const key of [...lives.keys()]) closeTerminal(key);
  signedIn = now;
});

// Tabs of this browser tab that were open before a reload come back to their shells.
try {
  for (const t of JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as Array<{ name: string; serverId: string }>) create(t.name, t.serverId);
} catch {}
