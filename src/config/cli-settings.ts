/**
 * Flags and environment variables read into raw settings, for parseConfig: the server (main.ts) and
 * `tablo health` (boot/health-cli.ts) read them alike, so the check finds the server where it listens.
 * A flag wins over its variable.
 */
import { parseArgs } from 'node:util';
import { ENV_NAMES, kebab, type Config } from './config';

/** Settings given as comma lists. */
const LIST_SETTINGS = new Set(['sqliteAllowDirs', 'connectAllow', 'trustedProxies']);
/** Switches (every true/false setting) may stand alone: `--allow-signup` means `--allow-signup true`. */
const BARE_SWITCHES = new Set((['allowSignup', 'disableTerminal', 'terminal', 'apiClientAllowPrivate', 'logRequests'] satisfies (keyof Config)[]).map((k) => `--${kebab(k)}`));
const withSwitchValues = (argv: string[]) =>
  argv.flatMap((a, i) => (BARE_SWITCHES.has(a) && (i + 1 >= argv.length || argv[i + 1]!.startsWith('--')) ? [a, 'true'] : [a]));

/** A negative number (-5, -0.5): no flag looks like one. */
const NEGATIVE_NUMBER = /^-(\d+\.?\d*|\.\d+)$/;
/**
 * `--flag -5` as `--flag=-5`: node's parseArgs takes a value starting with '-' for a flag (and refuses
 * it as ambiguous), so a negative number would need the `=` form; the setting's check then says what
 * it accepts (`expected a whole number from 0 to 65535, got -5`).
 */
const withNegativeValues = (argv: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (/^--[a-z][\w-]*$/.test(a) && !BARE_SWITCHES.has(a) && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
};

/**
 * The raw settings of `argv` and `env` (flags win), and the extra switches asked for (`extra`, such as
 * --help). Throws node's parseArgs error on an unknown flag or a missing value.
 */
export function readSettings(argv: string[], env: Record<string, string | undefined>, extra: string[] = []): { raw: Record<string, unknown>; switches: Set<string> } {
  const options: Record<string, { type: 'string' | 'boolean' }> = Object.fromEntries(extra.map((name) => [name, { type: 'boolean' as const }]));
  for (const key of Object.keys(ENV_NAMES)) options[kebab(key)] = { type: 'string' };
  const { values } = parseArgs({ args: withSwitchValues(withNegativeValues(argv)), options, strict: true, allowPositionals: false });
  const raw: Record<string, unknown> = {};
  for (const [key, envName] of Object.entries(ENV_NAMES)) {
    const v = (values as Record<string, unknown>)[kebab(key)] ?? env[envName];
    raw[key] = LIST_SETTINGS.has(key) && typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : v;
  }
  return { raw, switches: new Set(extra.filter((name) => (values as Record<string, unknown>)[name] === true)) };
}
