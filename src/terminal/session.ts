/**
 * One terminal: a shell on a pseudo-terminal (Bun.spawn with `terminal`), bridged to at most one
 * websocket at a time. Output goes out as binary frames; when the socket's buffer passes the high
 * mark the pty is paused with XOFF (the tty's own flow control: the writing program blocks) and
 * resumed with XON once the socket drains. A dropped socket leaves the shell running (output kept
 * in a small backlog) for the grace period, then the session ends; ending kills the whole tree.
 * The newest output is also kept, for a page that comes back with an empty screen after a reload.
 */
import type { AppSocket } from '../http/sockets';
import { newId } from '../lib/ids';
import { endProcessTree } from './process-tree';
import { OutputRing } from './output-ring';

/** termios c_iflag bit that makes ^S / ^Q stop and restart output. */
const IXON = 0o2000;
const XOFF = '\x13';
const XON = '\x11';

/** Who opened a terminal. */
export interface TerminalOwner {
  /** One key per person: the user id, or 'master' for the master key and auth type none. */
  key: string;
  userId?: string;
  email?: string;
  ip?: string;
  /** The user's token version when the terminal opened; a change (sign-out elsewhere, password) ends it. */
  tokenVersion?: number;
}

/** Messages the server sends as text frames; output is sent as binary frames. */
export type ServerMessage = { type: 'ready'; id: string; pid: number; shell: string; cwd: string; reattached: boolean } | { type: 'exit'; reason: string };

export interface SessionOptions {
  owner: TerminalOwner;
  shell: string;
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Socket buffer above which the pty is paused, and below which it resumes. */
  highWater: number;
  lowWater: number;
  /** Output kept while no socket is attached. */
  backlogBytes: number;
  /** The newest output, replayed to a page that lost its screen (a reload). */
  replayBytes: number;
  /** How long the shell waits for its socket to come back. */
  detachGraceMs: number;
  onEnd(session: TerminalSession, reason: string): void;
}

/** The state a terminal socket carries. */
export interface TerminalSocketState {
  session: TerminalSession;
  reattached: boolean;
  /** The page has an empty screen (it was reloaded): send the newest output, not only what it missed. */
  replay: boolean;
}

export type TerminalSocket = AppSocket<TerminalSocketState>;

/** Clamps a window size to what a pty takes. */
export const clampSize = (n: unknown, fallback: number, max: number) => {
  const v = Math.floor(Number(n));
  return Number.isFinite(v) && v >= 1 ? Math.min(v, max) : fallback;
};

export class TerminalSession {
  readonly id = newId('term');
  readonly owner: TerminalOwner;
  readonly pid: number;
  readonly shell: string;
  readonly cwd: string;
  readonly openedAt = Date.now();
  /** Last input or output (for the idle limit). */
  lastActive = Date.now();
  ended = false;
  /** Settles once the process tree is gone and the pty closed (after end). */
  finished: Promise<void> = Promise.resolve();
  private readonly proc: ReturnType<typeof Bun.spawn>;
  private readonly terminal: Bun.Terminal;
  private socket: TerminalSocket | null = null;
  /** Output is paused while the socket's buffer is full or the browser asked (its xterm is behind). */
  private socketFull = false;
  private clientBehind = false;
  private paused = false;
  private forcedIxon = false;
  private readonly backlog: OutputRing;
  private readonly recent: OutputRing;
  private detachTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: SessionOptions) {
    this.owner = opts.owner;
    this.backlog = new OutputRing(opts.backlogBytes);
    this.recent = new OutputRing(opts.replayBytes);
    this.shell = opts.shell;
    this.cwd = opts.cwd;
    this.proc = Bun.spawn([opts.shell, '-l'], {
      cwd: opts.cwd,
      env: opts.env,
      terminal: { cols: opts.cols, rows: opts.rows, name: 'xterm-256color', data: (_t, data) => this.output(data) },
    });
    this.terminal = this.proc.terminal!;
    this.pid = this.proc.pid;
    void this.proc.exited.then((code) => {
      // Let the last output of the shell arrive before the socket is told.
      setTimeout(() => this.end(`the shell exited${code ? ` with code ${code}` : ''}`), 100);
    });
    // Nobody is attached until the socket opens: the grace period already runs.
    this.startGrace();
  }

  /**
   * Binds a socket; a socket attached before (another window) is closed. Sends what the socket
   * missed while none was attached, or with `replay` the newest output (a reloaded page).
   */
  attach(ws: TerminalSocket, reattached: boolean, replay = false): void {
    if (this.ended) {
      ws.close(4000, 'This terminal has ended');
      return;
    }
    if (this.socket && this.socket !== ws) this.socket.close(4001, 'The terminal was opened in another window');
    this.socket = ws;
    this.clearGrace();
    this.send({ type: 'ready', id: this.id, pid: this.pid, shell: this.shell, cwd: this.cwd, reattached });
    const missed = this.backlog.take();
    for (const chunk of replay ? this.recent.peek() : missed) ws.send(chunk);
    this.clientBehind = false;
    this.socketFull = ws.getBufferedAmount() > this.opts.highWater;
    this.flow();
  }

  /** The socket went away without closing the terminal: wait for it for the grace period. */
  detach(ws: TerminalSocket): void {
    if (this.socket !== ws) return;
    this.socket = null;
    if (!this.ended) this.startGrace();
  }

  /** Keystrokes and pasted text from the browser. */
  input(data: string | Uint8Array): void {
    if (this.ended) return;
    this.lastActive = Date.now();
    this.terminal.write(data);
  }

  /** The browser's window size. */
  resize(cols: unknown, rows: unknown): void {
    if (this.ended) return;
    this.terminal.resize(clampSize(cols, 80, 1000), clampSize(rows, 24, 500));
  }

  /** The socket's buffer drained: resume output once it is below the low mark. */
  drained(ws: TerminalSocket): void {
    if (this.socket !== ws || ws.getBufferedAmount() >= this.opts.lowWater) return;
    this.socketFull = false;
    this.flow();
  }

  /** The browser's terminal has too much unrendered output (true), or caught up (false). */
  clientFlow(behind: boolean): void {
    this.clientBehind = behind;
    this.flow();
  }

  /** Ends the terminal: tells the socket why, kills the process tree, closes the pty. Idempotent. */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.clearGrace();
    const ws = this.socket;
    this.socket = null;
    if (ws) {
      this.sendTo(ws, { type: 'exit', reason });
      ws.close(4000, reason.slice(0, 120));
    }
    this.finished = endProcessTree(this.pid).finally(() => {
      if (!this.terminal.closed) this.terminal.close();
    });
    this.opts.onEnd(this, reason);
  }

  private output(data: Uint8Array): void {
    this.lastActive = Date.now();
    this.recent.push(data);
    const ws = this.socket;
    if (!ws) {
      // Nobody reads: keep the newest output, and hold the program once a good part of the backlog is used.
      this.backlog.push(data);
      if (this.backlog.bytes > this.opts.backlogBytes / 4) this.pause();
      return;
    }
    const sent = ws.send(data);
    if (sent === -1 || ws.getBufferedAmount() > this.opts.highWater) {
      this.socketFull = true;
      this.pause();
    }
  }

  /** Pauses or resumes output after a change of the socket's or the browser's state. */
  private flow(): void {
    if (!this.socket) return;
    if (this.socketFull || this.clientBehind) this.pause();
    else this.resume();
  }

  /** Stops the pty's output with XOFF (turning IXON on for the moment when the program turned it off). */
  private pause(): void {
    if (this.paused || this.terminal.closed) return;
    const flags = this.terminal.inputFlags;
    if (!(flags & IXON)) {
      this.terminal.inputFlags = flags | IXON;
      this.forcedIxon = true;
    }
    this.terminal.write(XOFF);
    this.paused = true;
  }

  private resume(): void {
    if (!this.paused || this.terminal.closed) return;
    this.paused = false;
    // Clearing IXON restarts a stopped tty by itself; a program that had IXON on gets XON.
    if (this.forcedIxon) {
      this.forcedIxon = false;
      this.terminal.inputFlags = this.terminal.inputFlags & ~IXON;
    } else this.terminal.write(XON);
  }

  private startGrace(): void {
    this.clearGrace();
    this.detachTimer = setTimeout(() => this.end(`the connection was gone for more than ${Math.round(this.opts.detachGraceMs / 1000)} s`), this.opts.detachGraceMs);
  }

  private clearGrace(): void {
    if (this.detachTimer) clearTimeout(this.detachTimer);
    this.detachTimer = null;
  }

  private send(message: ServerMessage): void {
    if (this.socket) this.sendTo(this.socket, message);
  }

  private sendTo(ws: TerminalSocket, message: ServerMessage): void {
    ws.send(JSON.stringify(message));
  }
}
