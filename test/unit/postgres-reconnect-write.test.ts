/**
 * The `postgres` driver as patched here (patches/postgres@3.4.9.patch): it writes small messages on the next
 * turn of the event loop, and a connection whose socket closed while such a write waited used to keep that
 * turn marked as taken, so after it opened again nothing it wrote ever left (its startup message included):
 * each attempt ended in CONNECT_TIMEOUT, for as long as the process ran. The connection runs here on stand-in
 * sockets (the driver's `socket` option) that count the bytes written to them; the first one closes before
 * the driver's write comes.
 */
import { expect, test } from 'bun:test';
import { EventEmitter } from 'node:events';
import postgres from 'postgres';

class CountingSocket extends EventEmitter {
  written = 0;
  readyState = 'open';
  write(data: Uint8Array | string) {
    this.written += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    return true;
  }
  setKeepAlive() {}
  end() {
    this.readyState = 'closed';
  }
  destroy() {
    this.readyState = 'closed';
  }
}

test('a connection whose socket closed with a write waiting writes again once it opens a new one', async () => {
  const sockets: CountingSocket[] = [];
  const sql = postgres({
    host: 'stand-in.invalid',
    max: 1,
    connect_timeout: 1,
    backoff: () => 0,
    onnotice: () => {},
    socket: () => {
      const s = new CountingSocket();
      // Queued before the driver queues its write of the startup message: the socket closes first.
      if (sockets.length === 0) setImmediate(() => s.emit('close', false));
      sockets.push(s);
      return s;
    },
  } as postgres.Options<{}> & { socket: () => unknown });
  void sql`SELECT 1`.catch(() => {});
  try {
    for (let i = 0; i < 100 && sockets.length < 2; i++) await Bun.sleep(10);
    expect(sockets.length).toBe(2);
    for (let i = 0; i < 100 && sockets[1]!.written === 0; i++) await Bun.sleep(10);
    expect(sockets[0]!.written).toBe(0);
    expect(sockets[1]!.written).toBeGreaterThan(0);
  } finally {
    await sql.end({ timeout: 0 }).catch(() => {});
  }
});
