/**
 * `tablo health`: asks the Tablo of this machine for GET /api/health and exits 0 when it answers 200,
 * else 1 with one line saying why. It reads the same flags and environment variables as the server
 * (config/cli-settings.ts), so it finds the server where that listens: its port (PORT / --port), its
 * address (HOST / --host; every address is asked on loopback) and the path NC_PUBLIC_URL puts it
 * under. The container health check runs it, so the image needs no curl (nor anything else fetched
 * from the network) besides the binary.
 */
import { ConfigError, parseConfig, type Config } from '../config/config';
import { readSettings } from '../config/cli-settings';
import { publicPath } from '../http/link-base';

/** How long the check waits for an answer (the Dockerfile's HEALTHCHECK allows 5 s). */
const HEALTH_TIMEOUT_MS = 4_000;

/** The health address of the server started with `config`, asked from this machine. */
export function healthUrl(config: Pick<Config, 'host' | 'port' | 'publicUrl'>): string {
  // A server listening on every address is asked on loopback.
  const host = ['', '0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}${publicPath(config)}/api/health`;
}

/** Runs `tablo health [server flags]`; answers the exit code. */
export async function runHealthCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let config: Config;
  try {
    config = parseConfig(readSettings(args, env).raw);
  } catch (e) {
    if (e instanceof ConfigError) err(`tablo health: ${e.message}`);
    else err(`tablo health: ${(e as Error).message.split('\n')[0]!.replace(/\.$/, '')}. Usage: tablo health [--port 8080] [--host 127.0.0.1] [--public-url ...] (the flags the server was started with)`);
    return 2;
  }
  if (config.port === 0) {
    err(`tablo health: ${args.some((a) => a === '--port' || a.startsWith('--port=')) ? '--port' : 'PORT'} 0 names no port the server listens on: give its port (1 to 65535)`);
    return 2;
  }
  const url = healthUrl(config);
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
