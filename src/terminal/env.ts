/**
 * The environment of a terminal's shell: the server's environment without any Tablo setting
 * (NC_*, TABLO_*, PORT, HOST) or anything that looks like a secret (names with SECRET, TOKEN,
 * PASSWORD, KEY, CREDENTIAL, AUTH, PRIVATE, or a database URL), plus TERM, SHELL and PWD.
 */
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

const TABLO_NAMES = /^(NC_|TABLO_|DATABASE_URL$|DB_URL$|PORT$|HOST$|NODE_ENV$)/i;
const SECRET_LIKE = /SECRET|TOKEN|PASS(WORD|WD)?($|_)|(^|_)PWD($|_)|API_?KEY|ACCESS_?KEY|PRIVATE|CREDENTIAL|(^|_)AUTH|SESSION|COOKIE|(^|_)KEY($|_)|_DSN$|CONN(ECTION)?_?STR|_URI$|_URL$/i;
/** Kept even though they end in _URL or similar: plain system settings. */
const ALWAYS_KEEP = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'SHELL']);
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** True when a variable must not reach the terminal. */
export function isHiddenVariable(name: string): boolean {
  if (ALWAYS_KEEP.has(name)) return false;
  return TABLO_NAMES.test(name) || SECRET_LIKE.test(name);
}

/** The login shell of the user Tablo runs as, from /etc/passwd (undefined when not found). */
function passwdShell(): string | undefined {
  try {
    const uid = String(process.getuid?.() ?? -1);
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[2] === uid);
    return line?.split(':')[6]?.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The user's login shell when it exists, else $SHELL, else /bin/sh. */
export function loginShell(hostEnv: Record<string, string | undefined>): string {
  let shell = passwdShell();
  try {
    shell ??= userInfo().shell ?? undefined;
  } catch {}
  for (const candidate of [shell, hostEnv.SHELL, '/bin/sh']) if (candidate && candidate.startsWith('/') && !/nologin|false$/.test(candidate) && existsSync(candidate)) return candidate;
  return '/bin/sh';
}

/** The shell's environment: cleaned host environment, working directory and terminal type. */
export function terminalEnv(hostEnv: Record<string, string | undefined>, cwd: string, shell: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) if (value !== undefined && !isHiddenVariable(name)) env[name] = value;
  env.PATH ??= DEFAULT_PATH;
  env.HOME ??= userInfo().homedir;
  env.TERM = 'xterm-256color';
  env.COLORTERM = 'truecolor';
  env.SHELL = shell;
  env.PWD = cwd;
  return env;
}
