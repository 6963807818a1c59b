/**
 * CLI entry: flags + env -> Config, boot the data directory and metadata store, createApp(), listen.
 * The only file that reads process.env. SIGTERM/SIGINT stop accepting, finish in-flight requests,
 * close pools and exit 0.
 */
import { maxHeaderSize } from 'node:http';
import { ConfigError, ENV_NAMES, kebab, parseConfig, type Config } from './config/config';
import { LIMITS } from './config/limits';
import { readSettings } from './config/cli-settings';
import { boot } from './boot/boot';
import { createApp } from './app';
import { consoleLogger } from './lib/log';
import { VERSION } from './version';
import { webAnswer, webRoutes } from './http/web';
import { publicPath } from './http/link-base';
import { serveApp } from './http/serve';
import { startSqliteRunner } from './sql/raw/sqlite-runner';

const FLAG_HELP: Partial<Record<keyof Config, string>> = {
  port: 'HTTP port (default 8080)',
  host: 'address to listen on (default 0.0.0.0)',
  dataDir: 'data directory: metadata, embedded databases, keys (default ./data)',
  metaDb: 'metadata database: postgres://user:pass@host:5432/db for several instances (default: SQLite in the data directory)',
  jwtSecret: 'secret that signs sessions (default: generated once, kept in the data directory)',
  adminSecret: 'master key; setting it switches the auth type to masterKey',
  authType: 'none | jwt | masterKey (default jwt)',
  publicUrl: 'public URL of this server, used in links (e.g. password reset); with its path when served under one (https://corp.example/tablo)',
  allowSignup: 'let anyone sign up without an invite (default false)',
  queryLimitMax: 'largest page size of generated APIs (default 1000)',
  countTimeoutMs: 'time limit of count queries in ms (default 10000)',
  apiClientAllowPrivate: 'let the API and gRPC clients, webhooks and cron jobs reach loopback and private addresses from the server (default false)',
  queryTimeoutMs: 'time limit of every data statement in ms on PostgreSQL, MariaDB and SQL Server, and of cron jobs\' SQL statements on SQLite too (default 30000, 0 = none)',
  disableTerminal: 'turn the built-in terminal off; wins over --terminal (default false)',
  terminal: 'turn the built-in terminal on beyond loopback (default: on only when listening on 127.0.0.1/localhost)',
  terminalIdleMin: 'a terminal idle this many minutes ends (default 30)',
  sqliteAllowDirs: 'comma list of folders where SQLite project files may live besides the data directory',
  logRequests: 'log one line per request (default true)',
  uiMaxTabs: 'most dashboard tabs open at once (default 99)',
  env: 'production | development | test',
  googleClientId: 'Google OAuth client id: shows "Sign in with Google" (redirect URI: <public URL>/user/authentication/callback)',
  googleClientSecret: 'Google OAuth client secret',
  googleIssuer: 'Google OpenID Connect issuer (default https://accounts.google.com)',
  githubClientId: 'GitHub OAuth app client id: shows "Sign in with GitHub"',
  githubClientSecret: 'GitHub OAuth app client secret',
  githubAuthorizeUrl: 'GitHub authorize URL (default https://github.com/login/oauth/authorize)',
  githubTokenUrl: 'GitHub token URL (default https://github.com/login/oauth/access_token)',
  githubApiUrl: 'GitHub API URL (default https://api.github.com)',
  oidcIssuer: 'OpenID Connect issuer or discovery URL of any provider',
  oidcClientId: 'OpenID Connect client id',
  oidcClientSecret: 'OpenID Connect client secret',
  oidcName: 'name on the OpenID Connect sign-in button (default OpenID Connect)',
  connectAllow: 'comma list of host:port patterns external databases may be reached at (default: any)',
  trustedProxies: 'comma list of proxy addresses/CIDRs whose X-Forwarded-For, -Proto, -Host and -Prefix are believed',
  hookRetryBaseMs: 'first webhook retry delay in ms, doubled per attempt (default 10000)',
  hookTimeoutMs: 'time-out of one webhook delivery attempt in ms (default 10000)',
  hookPollMs: 'how often pending webhook deliveries are looked for, in ms (default 1000)',
  attachmentMaxBytes: 'largest uploaded attachment file in bytes (default 10420224)',
  attachmentSweepMs: 'how often files no row holds are removed from storage, in ms (default 600000; 0 = never)',
  attachmentLinkSeconds: 'how long the short-lived links to stored files work, in seconds (default 300)',
  updateFeed: 'URL of a JSON release feed ({version, url, sha256, notes}); the dashboard says when a newer version exists (default: off)',
  updateMode: 'binary | notice | auto: whether the single binary installs a newer release itself (default auto: binary when it may write its folder)',
};

/** Column widths of --help: the longest flag and variable names fit, so the descriptions line up. */
const HELP_FLAG_WIDTH = Math.max(...Object.keys(ENV_NAMES).map((k) => kebab(k).length));
const HELP_ENV_WIDTH = Math.max(...Object.values(ENV_NAMES).map((n) => n.length));

function helpText(): string {
  const lines = Object.keys(ENV_NAMES).map((k) => {
    const key = k as keyof Config;
    return `  --${kebab(key).padEnd(HELP_FLAG_WIDTH)} ${ENV_NAMES[key].padEnd(HELP_ENV_WIDTH)} ${FLAG_HELP[key] ?? ''}`;
  });
  return `Tablo ${VERSION}: any SQL database as a collaborative spreadsheet and a REST + GraphQL API.

Usage: tablo [flags]
       tablo meta copy --from data/tablo.db --to postgres://user:pass@host:5432/db
       tablo health [flags]   (exit 0 when the Tablo these flags and variables start answers its health check)

Flags (each can also be set by the environment variable beside it):
${lines.join('\n')}
  ${'--help'.padEnd(HELP_FLAG_WIDTH + 2)} ${''.padEnd(HELP_ENV_WIDTH)} show this help
  ${'--version'.padEnd(HELP_FLAG_WIDTH + 2)} ${''.padEnd(HELP_ENV_WIDTH)} print the version
`;
}

/** Reads flags and env into raw settings; flags win. */
function rawSettings(argv: string[], env: Record<string, string | undefined>): Record<string, unknown> {
  const { raw, switches } = readSettings(argv, env, ['help', 'version']);
  if (switches.has('help')) {
    process.stdout.write(helpText());
    process.exit(0);
  }
  if (switches.has('version')) {
    process.stdout.write(VERSION + '\n');
    process.exit(0);
  }
  return raw;
}

/** One line saying why Tablo could not listen (Bun's error spans several lines and names no setting). */
function listenFailure(e: unknown, config: Config): string {
  const code = (e as { code?: string }).code;
  const where = `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const why =
    code === 'EADDRINUSE' ? `port ${config.port} is already in use (choose another with PORT or --port)`
    : code === 'EACCES' ? `permission denied (ports below 1024 need privileges; choose another with PORT or --port)`
    : code === 'EADDRNOTAVAIL' || code === 'EINVAL' || code === 'ENOTFOUND' ? `${config.host} is not an address of this machine (check HOST or --host)`
    : ((e as Error).message ?? String(e)).split('\n')[0];
  return `tablo: cannot listen on ${where}: ${why}`;
}

async function main() {
  // The binary started as the SQL Client's SQLite runner (src/sql/raw/sqlite-session.ts).
  if (process.env.TABLO_SQLITE_RUNNER) return startSqliteRunner(process.env.TABLO_SQLITE_RUNNER);
  // `tablo meta copy --from ... --to ...` (src/meta/copy-cli.ts)
  if (process.argv[2] === 'meta') {
    const { runMetaCommand } = await import('./meta/copy-cli');
    process.exit(await runMetaCommand(process.argv.slice(3), (l) => process.stdout.write(l + '\n'), (l) => process.stderr.write(l + '\n')));
  }
  // `tablo health` (src/boot/health-cli.ts): the container's health check.
  if (process.argv[2] === 'health') {
    const { runHealthCommand } = await import('./boot/health-cli');
    process.exit(await runHealthCommand(process.argv.slice(3), process.env, (l) => process.stdout.write(l + '\n'), (l) => process.stderr.write(l + '\n')));
  }
  let config: Config;
  try {
    // A compiled binary passes every argument to the app; skip the runtime's own.
    const argv = process.argv.slice(2);
    config = parseConfig(rawSettings(argv, process.env));
  } catch (e) {
    // node:util's messages may span lines ("... is ambiguous.\nDid you forget ..."): the first says it.
    const msg = e instanceof ConfigError ? e.message : `tablo: ${(e as Error).message.split('\n')[0]!.replace(/\.$/, '')}. Try --help.`;
    process.stderr.write(msg + '\n');
    process.exit(2);
  }
  const log = consoleLogger;
  let booted;
  try {
    booted = await boot(config, log);
  } catch (e) {
    process.stderr.write(`tablo: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const app = createApp(config, { ...booted, log, hostEnv: process.env });
  /** This server's own address (the web app's page is read from it when not embedded). */
  let selfUrl = '';
  let server: ReturnType<typeof serveApp>;
  const web = webRoutes(() => selfUrl, config.env === 'development');
  try {
    server = serveApp(app, {
      port: config.port,
      hostname: config.host,
      // Bun would answer a body over its cap with a bare 413: Tablo refuses bodies over the limit itself,
      // with `{msg}` (by Content-Length, and while reading chunked ones), so Bun's cap is set far above.
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      development: config.env === 'development',
      // The web app (and its bundled assets) as static routes; websockets upgrade; the rest goes to the API.
      routes: web,
      pathPrefix: publicPath(config),
      prefixedStatic: (request, path) => webAnswer(web, () => selfUrl, request, path),
    });
  } catch (e) {
    process.stderr.write(listenFailure(e, config) + '\n');
    await app.close().catch(() => {});
    await booted.meta.close().catch(() => {});
    process.exit(1);
  }
  const everywhere = ['0.0.0.0', '::', ''].includes(config.host);
  const urlHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  selfUrl = `http://${everywhere ? '127.0.0.1' : urlHost}:${server.port}`;
  // An address to open in a browser (an IPv6 one in brackets).
  log.info(`Tablo ${VERSION} listening on http://${everywhere ? 'localhost' : urlHost}:${server.port} (data: ${booted.dataDir})`);
  log.info(app.terminals.policy.reason);
  // Started without the raised header limit (the binary and `bun run start` carry it): long filters get Bun's empty 431.
  if (maxHeaderSize < LIMITS.httpParserMaxHeaderBytes) log.warn(`Bun's HTTP header limit is ${maxHeaderSize} bytes: requests with longer addresses (long filters) are refused with an empty 431; start Tablo with bun --max-http-header-size=${LIMITS.httpParserMaxHeaderBytes}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing in-flight requests`);
    const timer = setTimeout(() => {
      log.warn('shutdown grace period over; closing remaining connections');
      server.stop(true);
    }, LIMITS.shutdownGraceMs);
    await app.terminals.closeAll();
    // Stops listening at once; open websockets (grids, terminals) are closed rather than waited for:
    // Bun's graceful stop would otherwise hold until the grace period ends.
    const drained = server.stop(false);
    app.sockets.closeAll();
    await drained;
    clearTimeout(timer);
    await app.close();
    await booted.meta.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();
