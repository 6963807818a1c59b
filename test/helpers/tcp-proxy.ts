/**
 * A TCP proxy on a loopback port that a test can close and reopen, to make a real database
 * "go away" and "come back" without touching the database server itself.
 */
import type { Socket, TCPSocketListener } from 'bun';

export interface TcpProxy {
  port: number;
  /** Stops listening and cuts every open connection. */
  down(): void;
  /** Listens again on the same port. */
  up(): void;
  /** Keeps every connection open but passes nothing either way (a server that hangs); down() ends it. */
  stall(): void;
}

export function startTcpProxy(targetHost: string, targetPort: number): TcpProxy {
  let listener: TCPSocketListener<{ peer?: Socket<any>; pending: Uint8Array[] }> | null = null;
  const open = new Set<Socket<any>>();
  let port = 0;
  let stalled = false;

  const listen = () => {
    listener = Bun.listen<{ peer?: Socket<any>; pending: Uint8Array[] }>({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(client) {
          client.data = { pending: [] };
          open.add(client);
          void Bun.connect<{ peer: Socket<any> }>({
            hostname: targetHost,
            port: targetPort,
            data: { peer: client },
            socket: {
              open(server) {
                open.add(server);
                client.data.peer = server;
                for (const chunk of client.data.pending) server.write(chunk);
                client.data.pending = [];
              },
              data(server, chunk) {
                if (!stalled) server.data.peer.write(chunk);
              },
              close(server) {
                open.delete(server);
                server.data.peer.end();
              },
              error(server) {
                server.data.peer.end();
              },
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          if (stalled) return;
          if (client.data.peer) client.data.peer.write(chunk);
          else client.data.pending.push(new Uint8Array(chunk));
        },
        close(client) {
          open.delete(client);
          client.data.peer?.end();
        },
        error(client) {
          client.data.peer?.end();
        },
      },
    });
    port = listener.port;
  };
  listen();

  return {
    get port() {
      return port;
    },
    down() {
      stalled = false;
      listener?.stop(true);
      listener = null;
      for (const s of open) s.terminate();
      open.clear();
    },
    up() {
      if (!listener) listen();
    },
    stall() {
      stalled = true;
    },
  };
}
