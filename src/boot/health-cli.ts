/**
 * `tablo health`: asks the Tablo of this machine (PORT / --port, HOST / --host as the server reads
 * them) for GET /api/health and exits 0 when it answers 200, else 1 with one line saying why. The
 * container health check runs it, so the image needs no curl (nor anything else fetched from the
 * network) besides the binary.
 */
import { parseArgs } from 'node:util';

/** How long the check waits for an answer (the Dockerfile's HEALTHCHECK allows 5 s). */
const HEALTH_TIMEOUT_MS = 4_000;

/** Runs `tablo health [--port N] [--host H]`; answers the exit code. */
export async function runHealthCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let values: { port?: string; host?: string };
  try {
    ({ values } = parseArgs({ args, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true }));
  } catch (e) {
    err(`tablo health: ${(e as Error).message}. Usage: tablo health [--port 8080] [--host 127.0.0.1]`);
    return 2;
  }
  const port = (values.port ?? env.PORT ?? '8080').trim();
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    err(`tablo health: ${values.port !== undefined ? '--port' : 'PORT'} '${port}' is not a port number (1 to 65535)`);
    return 2;
  }
  const listening = values.host ?? env.HOST ?? '';
  // A server listening on every address is asked on loopback.
  const host = ['', '0.0.0.0', '::'].includes(listening) ? '127.0.0.1' : listening.includes(':') ? `[${listening}]` : listening;
  const url = `http://${host}:${port}/api/health`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body = await res.text();
    if (res.ok) {
      out(body);
      return 0;
    }
    err(`tablo health: ${url} answered ${res.status} ${body}`);
    return 1;
  } catch (e) {
    err(`tablo health: ${url} did not answer: ${(e as Error).message}`);
    return 1;
  }
}
