/**
 * CLI entry: flags + env -> Config, boot the data directory and metadata store, createApp(), listen.
 * The only file that reads process.env. SIGTERM/SIGINT stop accepting, finish in-flight requests,
 * close pools and exit 0.
 */
import { parseArgs } from 'node:util';
import { ConfigError, ENV_NAMES, kebab, parseConfig, type Config } from './config/config';
import { LIMITS } from './config/limits';
import { boot } from './boot/boot';
import { createApp } from './app';
import { consoleLogger } from './lib/log';
import { VERSION } from './version';
import { WEB_ROUTES } from './http/web';
import { useSocketServer } from './http/principal';

const FLAG_HELP: Partial<Record<keyof Config, string>> = {
  port: 'HTTP port (default 8080)',
  host: 'address to listen on (default 0.0.0.0)',
  dataDir: 'data directory: metadata, embedded databases, keys (default ./data)',
  metaDb: 'metadata database URL (default: SQLite in the data directory)',
  jwtSecret: 'secret that signs sessions (default: generated once, kept in the data directory)',
  adminSecret: 'master key; setting it switches the auth type to masterKey',
  authType: 'none | jwt | masterKey (default jwt)',
  publicUrl: 'public URL of this server, used in links (e.g. password reset)',
  allowSignup: 'let anyone sign up without an invite (default false)',
  queryLimitMax: 'largest page size of generated APIs (default 1000)',
  countTimeoutMs: 'time limit of count queries in ms (default 10000)',
  disableTerminal: 'turn the built-in terminal off (default false)',
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
};

function helpText(): string {
  const lines = Object.keys(ENV_NAMES).map((k) => {
    const key = k as keyof Config;
    return `  --${kebab(key).padEnd(20)} ${ENV_NAMES[key].padEnd(24)} ${FLAG_HELP[key] ?? ''}`;
  });
  return `Tablo ${VERSION}: any SQL database as a collaborative spreadsheet and a REST + GraphQL API.

Usage: tablo [flags]

Flags (each can also be set by the environment variable beside it):
${lines.join('\n')}
  --help                                        show this help
  --version                                     print the version
`;
}

/** Reads flags and env into raw settings; flags win. */
function rawSettings(argv: string[], env: Record<string, string | undefined>): Record<string, unknown> {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' }, version: { type: 'boolean' } };
  for (const key of Object.keys(ENV_NAMES)) options[kebab(key)] = { type: 'string' };
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(helpText());
    process.exit(0);
  }
  if (values.version) {
    process.stdout.write(VERSION + '\n');
    process.exit(0);
  }
  const raw: Record<string, unknown> = {};
  for (const [key, envName] of Object.entries(ENV_NAMES)) {
    const v = (values as Record<string, unknown>)[kebab(key)] ?? env[envName];
    raw[key] = key === 'sqliteAllowDirs' && typeof v === 'string' ? v.split(',').filter(Boolean) : v;
  }
  return raw;
}

async function main() {
  let config: Config;
  try {
    // A compiled binary passes every argument to the app; skip the runtime's own.
    const argv = process.argv.slice(2);
    config = parseConfig(rawSettings(argv, process.env));
  } catch (e) {
    const msg = e instanceof ConfigError ? e.message : `tablo: ${(e as Error).message}. Try --help.`;
    process.stderr.write(msg + '\n');
    process.exit(2);
  }
  const log = consoleLogger;
  let booted;
  try {
    booted = await boot(config);
  } catch (e) {
    process.stderr.write(`tablo: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const app = createApp(config, { ...booted, log });
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: Math.max(LIMITS.bodyLimitBytes, LIMITS.importMaxBytes),
    development: config.env === 'development',
    // The web app (and its bundled assets) as static routes; everything else goes to the API.
    routes: WEB_ROUTES,
    fetch: (request) => app.handle(request),
  });
  useSocketServer(server);
  log.info(`Tablo ${VERSION} listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${server.port} (data: ${booted.dataDir})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing in-flight requests`);
    const timer = setTimeout(() => {
      log.warn('shutdown grace period over; closing remaining connections');
      server.stop(true);
    }, LIMITS.shutdownGraceMs);
    await server.stop(false);
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
