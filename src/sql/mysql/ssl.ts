/**
 * SSL usage of a MySQL / MariaDB connection as mysql2 options. mysql2 either requires TLS or does
 * without it; "Preferred" tries TLS and, when the server offers none, connects in plain text (as
 * `mysql --ssl-mode=PREFERRED` does): the caller opens again with `ssl: undefined`.
 */
import type { ConnectionOptions } from '../dialect';

export function mysqlSsl(c: ConnectionOptions) {
  if (!c.ssl || c.ssl.mode === 'No') return undefined;
  return { rejectUnauthorized: c.ssl.mode !== 'Required' && c.ssl.mode !== 'Preferred', ca: c.ssl.ca, key: c.ssl.key, cert: c.ssl.cert };
}

/** True when `e` is the server's refusal of TLS and the connection only prefers it: try again without. */
export const fallsBackToPlain = (c: ConnectionOptions, e: unknown): boolean =>
  c.ssl?.mode === 'Preferred' && (e as { code?: unknown })?.code === 'HANDSHAKE_NO_SSL_SUPPORT';
