/**
 * The wire side of a browser terminal: the socket URL and subprotocols (the session token travels
 * as `tablo.jwt.<token>`, the master key as `tablo.key.<base64url>`, never in the URL) and the
 * status route.
 */
import { http } from '../../api/http';
import { masterKey, token } from '../../stores/session';
import { appSocketUrl } from '../../api/app-url';

/** GET /api/terminal/status. */
export interface TerminalStatus {
  enabled: boolean;
  reason: string;
  howToEnable: string;
  allowed: boolean;
  refusal?: string;
  maxTerminals: number;
  /** The caller's terminals open now, in every window. */
  open: number;
  idleMinutes: number;
  path: string;
  protocol: string;
}

export const terminalStatus = () => http<TerminalStatus>('/api/terminal/status');

const base64url = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Opens the terminal socket: a new terminal, or the one of `session` again (`replay`: with its newest output). */
export function openSocket(size: { cols: number; rows: number }, session?: string | null, replay = false): WebSocket {
  const url = new URL(appSocketUrl('/api/terminal/socket'));
  if (session) url.searchParams.set('session', session);
  if (session && replay) url.searchParams.set('replay', '1');
  url.searchParams.set('cols', String(size.cols));
  url.searchParams.set('rows', String(size.rows));
  const protocols = ['tablo.terminal'];
  if (masterKey.value) protocols.push(`tablo.key.${base64url(masterKey.value)}`);
  else if (token.value) protocols.push(`tablo.jwt.${token.value}`);
  const ws = new WebSocket(url, protocols);
  ws.binaryType = 'arraybuffer';
  return ws;
}
