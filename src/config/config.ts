/**
 * The one typed Config. main.ts is the only file that reads process.env and argv; it hands the raw
 * strings to parseConfig, which validates them with zod and names the setting on a bad value.
 */
import { z } from 'zod';
import { isIP, isIPv4 } from 'node:net';
import { LIMITS } from './limits';

/** An IP address, or an IPv4 CIDR range (the ranges client-address.ts can match). */
const isProxyEntry = (v: string) => {
  const [base, bits, ...rest] = v.split('/');
  if (rest.length) return false;
  if (bits === undefined) return isIP(base!) !== 0;
  return isIPv4(base!) && /^\d{1,2}$/.test(bits) && Number(bits) <= 32;
};

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v, ctx) => {
    if (typeof v === 'boolean') return v;
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
    ctx.addIssue({ code: 'custom', message: `expected true or false, got '${v}'` });
    return z.NEVER;
  });

/**
 * An http:// or https:// address. z.url() alone takes `localhost:8080` (its "scheme" being
 * `localhost:`), a usual slip that would make every link and the sign-in callback useless.
 */
const httpUrl = () => z.url({ protocol: /^https?$/, hostname: /./, error: 'expected an http:// or https:// address, such as https://tablo.example.com' });

/** A whole number within bounds; a bad value is named as it was given ("expected a whole number, got 'abc'"). */
const int = (min: number, max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n)) {
        ctx.addIssue({ code: 'custom', message: `expected a whole number, got '${v}'` });
        return z.NEVER;
      }
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `expected a whole number from ${min} to ${max}, got ${n}` });
        return z.NEVER;
      }
      return n;
    });

/** A number of minutes above 0 (fractions allowed), named as given on a bad value. */
const minutes = (max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : NaN;
      if (!Number.isFinite(n) || n <= 0 || n > max) {
        ctx.addIssue({ code: 'custom', message: `expected a number of minutes above 0 and up to ${max}, got '${v}'` });
        return z.NEVER;
      }
      return n;
    });

/** One of a few words, named as given on a bad value ("expected none, jwt or masterKey, got 'foo'"). */
const oneOf = <const T extends readonly [string, ...string[]]>(words: T) =>
  z.string().refine((v): v is T[number] => words.includes(v), {
    error: (issue) => `expected ${words.slice(0, -1).join(', ')} or ${words.at(-1)}, got '${String(issue.input)}'`,
  }) as unknown as z.ZodType<T[number], string>;

/**
 * The metadata database: a postgres:// URL (the embedded SQLite store when unset). Another kind is
 * refused here, as a bad setting, before anything is written to the data directory.
 */
const metaDbUrl = z.string().refine((v) => /^postgres(ql)?:\/\/./i.test(v), {
  error: 'only postgres://user:password@host:5432/database URLs are supported (unset it for the embedded SQLite store)',
});

export const ConfigSchema = z.object({
  port: int(0, 65535).default(8080),
  host: z.string().min(1).default('0.0.0.0'),
  dataDir: z.string().min(1).default('./data'),
  /** Metadata database URL; unset = bun:sqlite in dataDir. */
  metaDb: metaDbUrl.optional(),
  jwtSecret: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Setting it switches the auth type to masterKey. */
  adminSecret: z.string().min(8, 'must be at least 8 characters').optional(),
  /** Auth type; default jwt, or masterKey when adminSecret is set. */
  authType: oneOf(['none', 'jwt', 'masterKey']).optional(),
  publicUrl: httpUrl().optional(),
  allowSignup: bool.default(false),
  queryLimitMax: int(1, 100_000).default(LIMITS.queryLimitMax),
  countTimeoutMs: int(100, 600_000).default(LIMITS.countTimeoutMs),
  /** Time limit of every data statement (0: none). */
  queryTimeoutMs: int(0, 3_600_000).default(LIMITS.queryTimeoutMs),
  disableTerminal: bool.default(false),
  /** Let the API and gRPC clients reach loopback, private and link-local addresses from the server. */
  apiClientAllowPrivate: bool.default(false),
  /** Turns the terminal on when Tablo listens beyond loopback (on by default on loopback); disableTerminal wins. */
  terminal: bool.optional(),
  /** A terminal with no input or output for this many minutes ends (fractions allowed). */
  terminalIdleMin: minutes(10_080).default(30),
  /** Directories outside dataDir where SQLite project files may live. */
  sqliteAllowDirs: z.array(z.string()).default([]),
  logRequests: bool.default(true),
  /** Most dashboard tabs open at once (GET /ui_ability maxTabs). */
  uiMaxTabs: int(1, 9999).default(LIMITS.maxTabs),
  env: oneOf(['production', 'development', 'test']).default('production'),
  /** Sign in with Google: OAuth client of the Google Cloud console. */
  googleClientId: z.string().min(1).optional(),
  googleClientSecret: z.string().min(1).optional(),
  /** Google's OpenID Connect issuer (its discovery document is read from it). */
  googleIssuer: httpUrl().default('https://accounts.google.com'),
  /** Sign in with GitHub: OAuth app of the GitHub settings. */
  githubClientId: z.string().min(1).optional(),
  githubClientSecret: z.string().min(1).optional(),
  githubAuthorizeUrl: httpUrl().default('https://github.com/login/oauth/authorize'),
  githubTokenUrl: httpUrl().default('https://github.com/login/oauth/access_token'),
  githubApiUrl: httpUrl().default('https://api.github.com'),
  /** Any OpenID Connect provider: issuer or discovery URL, client, and the name on its button. */
  oidcIssuer: httpUrl().optional(),
  oidcClientId: z.string().min(1).optional(),
  oidcClientSecret: z.string().min(1).optional(),
  oidcName: z.string().min(1).max(60).default('OpenID Connect'),
  /** host:port patterns (`*` any run of characters) external project databases may be reached at; empty = any. */
  connectAllow: z.array(z.string().regex(/^[^:\s]+:[0-9*]+$/, 'expected host:port patterns such as db.internal:5432 or 10.0.0.*:*')).default([]),
  /** Addresses (or IPv4 CIDR ranges) of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed. */
  trustedProxies: z.array(z.string().refine(isProxyEntry, { error: (issue) => `'${String(issue.input)}' is not an IP address or an IPv4 CIDR range such as 10.0.0.0/8` })).default([]),
  /** Webhook deliveries: first retry delay (doubles per attempt), time-out of one attempt, queue poll interval. */
  hookRetryBaseMs: int(1, 3_600_000).default(LIMITS.hookRetryBaseMs),
  hookTimeoutMs: int(100, 120_000).default(LIMITS.hookTimeoutMs),
  hookPollMs: int(10, 60_000).default(LIMITS.hookPollMs),
  /** Largest file an Attachment upload accepts, in bytes (one request is also under the body limit). */
  attachmentMaxBytes: int(1, 1024 * 1024 * 1024).default(LIMITS.attachmentMaxBytes),
  /** How often stored files no row holds any more are removed from storage (0: never). */
  attachmentSweepMs: int(0, 86_400_000).default(LIMITS.attachmentSweepMs),
  /** How long the short-lived links to stored files (covers, thumbnails, shared views' files) work, in seconds. */
  attachmentLinkSeconds: int(1, 604_800).default(LIMITS.attachmentSignedUrlSeconds),
  /** JSON feed naming the latest release (version, url, sha256, notes); unset = no update checks. */
  updateFeed: httpUrl().optional(),
  /**
   * How a newer release is taken in: `binary` (the single binary replaces itself), `notice` (only announced),
   * `auto` (binary when running as the compiled binary from a writable folder, else notice).
   */
  updateMode: oneOf(['auto', 'binary', 'notice']).default('auto'),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Maps config keys to the environment variable that sets them (README lists these). */
export const ENV_NAMES: Record<keyof Config, string> = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'NC_DATA_DIR',
  metaDb: 'NC_DB',
  jwtSecret: 'NC_AUTH_JWT_SECRET',
  adminSecret: 'NC_AUTH_ADMIN_SECRET',
  authType: 'NC_AUTH_TYPE',
  publicUrl: 'NC_PUBLIC_URL',
  allowSignup: 'NC_ALLOW_SIGNUP',
  queryLimitMax: 'NC_DB_QUERY_LIMIT_MAX',
  countTimeoutMs: 'NC_COUNT_TIMEOUT_MS',
  queryTimeoutMs: 'NC_QUERY_TIMEOUT_MS',
  apiClientAllowPrivate: 'NC_API_CLIENT_ALLOW_PRIVATE',
  disableTerminal: 'NC_DISABLE_TERMINAL',
  terminal: 'NC_TERMINAL',
  terminalIdleMin: 'NC_TERMINAL_IDLE_MIN',
  sqliteAllowDirs: 'NC_SQLITE_ALLOW_DIRS',
  logRequests: 'NC_LOG_REQUESTS',
  uiMaxTabs: 'NC_UI_MAX_TABS',
  env: 'NODE_ENV',
  googleClientId: 'NC_GOOGLE_CLIENT_ID',
  googleClientSecret: 'NC_GOOGLE_CLIENT_SECRET',
  googleIssuer: 'NC_GOOGLE_ISSUER',
  githubClientId: 'NC_GITHUB_CLIENT_ID',
  githubClientSecret: 'NC_GITHUB_CLIENT_SECRET',
  githubAuthorizeUrl: 'NC_GITHUB_AUTHORIZE_URL',
  githubTokenUrl: 'NC_GITHUB_TOKEN_URL',
  githubApiUrl: 'NC_GITHUB_API_URL',
  oidcIssuer: 'NC_OIDC_ISSUER',
  oidcClientId: 'NC_OIDC_CLIENT_ID',
  oidcClientSecret: 'NC_OIDC_CLIENT_SECRET',
  oidcName: 'NC_OIDC_NAME',
  connectAllow: 'NC_CONNECT_ALLOW',
  trustedProxies: 'NC_TRUSTED_PROXIES',
  hookRetryBaseMs: 'NC_HOOK_RETRY_BASE_MS',
  hookTimeoutMs: 'NC_HOOK_TIMEOUT_MS',
  hookPollMs: 'NC_HOOK_POLL_MS',
  attachmentMaxBytes: 'NC_ATTACHMENT_MAX_BYTES',
  attachmentSweepMs: 'NC_ATTACHMENT_SWEEP_MS',
  attachmentLinkSeconds: 'NC_ATTACHMENT_LINK_SECONDS',
  updateFeed: 'NC_UPDATE_FEED',
  updateMode: 'NC_UPDATE_MODE',
};

/** Thrown with a one-line message naming the setting. */
export class ConfigError extends Error {}

/** Validates raw settings; throws ConfigError naming the first bad setting. */
export function parseConfig(raw: Record<string, unknown>): Config {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const r = ConfigSchema.safeParse(cleaned);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const key = String(issue.path[0] ?? '') as keyof Config;
    const name = ENV_NAMES[key] ?? key;
    throw new ConfigError(`Invalid setting ${name} (--${kebab(key)}): ${issue.message}`);
  }
  for (const [id, pair] of Object.entries(PROVIDER_PAIRS)) {
    const [a, b] = pair.map((k) => r.data[k]);
    if (!!a !== !!b) throw new ConfigError(`Sign-in with ${id} needs both ${pair.map((k) => ENV_NAMES[k]).join(' and ')}`);
  }
  const publicUrlProblem = r.data.publicUrl ? publicUrlPathProblem(r.data.publicUrl) : null;
  if (publicUrlProblem) throw new ConfigError(`Invalid setting NC_PUBLIC_URL (--public-url): ${publicUrlProblem}`);
  // The mode would ask for a master key that nothing matches.
  if (r.data.authType === 'masterKey' && !r.data.adminSecret) throw new ConfigError('Invalid setting NC_AUTH_TYPE (--auth-type): masterKey needs the master key in NC_AUTH_ADMIN_SECRET (--admin-secret)');
  if (r.data.oidcIssuer && !r.data.oidcClientId) throw new ConfigError('Sign-in with OpenID Connect needs NC_OIDC_CLIENT_ID and NC_OIDC_CLIENT_SECRET beside NC_OIDC_ISSUER');
  return r.data;
}

/** The first path segments of Tablo's own routes: NC_PUBLIC_URL's path cannot start with one. */
export const OWN_PATH_SEGMENTS = ['api', 'auth', 'user', 'admin', 'dashboard', 'nc', '_swagger', 'ui_ability'];

/**
 * What is wrong with the path part of NC_PUBLIC_URL, or null: a query or fragment, or a path that
 * starts like one of Tablo's own (requests under it are taken off that path, see src/http/path-prefix.ts).
 */
function publicUrlPathProblem(publicUrl: string): string | null {
  const url = new URL(publicUrl);
  if (url.search || url.hash) return 'expected no ?query or #fragment, only the address Tablo is served at, such as https://corp.example/tablo';
  const first = url.pathname.split('/').filter(Boolean)[0];
  if (first && OWN_PATH_SEGMENTS.includes(first.toLowerCase())) return `its path /${first} is one of Tablo's own; serve Tablo under another path, such as /tablo`;
  return null;
}

/** Settings that only work together: a client id needs its secret. */
const PROVIDER_PAIRS: Record<string, [keyof Config, keyof Config]> = {
  Google: ['googleClientId', 'googleClientSecret'],
  GitHub: ['githubClientId', 'githubClientSecret'],
  'OpenID Connect': ['oidcClientId', 'oidcClientSecret'],
};

/** Config for tests: defaults plus overrides, no environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...ConfigSchema.parse({ env: 'test', logRequests: false }), ...overrides };
}

export const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/** The effective auth type. */
export const authTypeOf = (c: Config): 'none' | 'jwt' | 'masterKey' =>
  c.authType ?? (c.adminSecret ? 'masterKey' : 'jwt');
