/**
 * Whether a PostgreSQL server accepts SSL: the driver sends its TLS hello even to a server that
 * answered "no" to the SSLRequest, and the server then hangs up, which reads as an unreachable
 * database. After such a failure, this asks the question again on a socket of its own: the
 * server answers one byte, S (yes) or N (no).
 */
import { connect } from 'node:net';

/** SSLRequest: length 8, code 80877103. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]);

/** true / false as the server answers; undefined when it does not answer in `timeoutMs`. */
export function pgAcceptsSsl(host: string, port: number, timeoutMs: number): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (v: boolean | undefined) => {
      socket.destroy();
      resolve(v);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.once('connect', () => socket.write(SSL_REQUEST));
    socket.once('data', (b) => done(b[0] === 0x53 ? true : b[0] === 0x4e ? false : undefined));
  });
}
