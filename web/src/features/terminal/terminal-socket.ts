/**
 * The wire side of a browser terminal: the socket URL and subprotocols (the session token travels
 * as `tablo.jwt.<token>`, the master key as `tablo.key.<base64url>`, never in the URL), the
 * status route, and the flow control that asks the server to hold output while xterm is behind.
 */
import { http } from '../../api/http';
import { masterKey, token } from '../../stores/session';

/** GET /api/terminal/status. */
export interface TerminalStatus {
  enabled: boolean;
  reason: string;
  howToEnable: string;
  allowed: boolean;
  refusal?: string;
  maxTerminals: number;
  idleMinutes: number;
  path: string;
  protocol: string;
}

export const terminalStatus = () => http<TerminalStatus>('/api/terminal/status');

/** Unrendered output above which the server is asked to pause, and below which to resume. */
export const FLOW_HIGH = 512 * 1024;
export const FLOW_LOW = 64 * 1024;

const base64url = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Opens the terminal socket: a new terminal, or the one of `session` again. */
export function openSocket(size: { cols: number; rows: number }, session?: string | null): WebSocket {
  const url = new URL('/api/terminal/socket', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  url.search = '';
  if (session) url.searchParams.set('session', session);
  url.searchParams.set('cols', String(size.cols));
  url.searchParams.set('rows', String(size.rows));
  const protocols = ['tablo.terminal'];
  if (masterKey.value) protocols.push(`tablo.key.${base64url(masterKey.value)}`);
  else if (token.value) protocols.push(`tablo.jwt.${token.value}`);
  const ws = new WebSocket(url, protocols);
  ws.binaryType = 'arraybuffer';
  return ws;
}

/** Counts output handed to xterm and not yet rendered; sends pause/resume across the marks. */
export class FlowControl {
  private pending = 0;
  private paused = false;
  constructor(private readonly send: (message: { type: 'pause' | 'resume' }) => void) {}

  /** Output arrived; answers the callback to call once xterm has rendered it. */
  written(bytes: number): () => void {
    this.pending += bytes;
    if (!this.paused && this.pending > FLOW_HIGH) {
      this.paused = true;
      this.send({ type: 'pause' });
    }
    return () => {
      this.pending -= bytes;
      if (this.paused && this.pending < FLOW_LOW) {
        this.paused = false;
        this.send({ type: 'resume' });
      }
    };
  }

  /** A new socket starts unpaused (the server resets its side on attach); output still unrendered counts on. */
  reset(): void {
    this.paused = false;
  }
}
