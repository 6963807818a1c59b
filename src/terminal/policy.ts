/**
 * Whether the built-in terminal is on, and why: on by default when Tablo listens on loopback only,
 * off otherwise unless NC_TERMINAL=1; NC_DISABLE_TERMINAL / --disable-terminal always wins.
 */
import type { Config } from '../config/config';

export interface TerminalPolicy {
  enabled: boolean;
  /** Why it is on or off, in one sentence. */
  reason: string;
  /** How to turn it on (empty when it is on). */
  howToEnable: string;
}

/** True for addresses only this machine reaches: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** The terminal policy of a configuration. */
export function terminalPolicy(config: Config): TerminalPolicy {
  if (config.disableTerminal) {
    return {
      enabled: false,
      reason: 'The terminal is turned off by NC_DISABLE_TERMINAL (--disable-terminal).',
      howToEnable: 'Start Tablo without NC_DISABLE_TERMINAL and --disable-terminal.',
    };
  }
  if (config.terminal === true) return { enabled: true, reason: 'The terminal is turned on by NC_TERMINAL=1.', howToEnable: '' };
  if (config.terminal === false) {
    return { enabled: false, reason: 'The terminal is turned off by NC_TERMINAL=0.', howToEnable: 'Start Tablo with NC_TERMINAL=1 (or --terminal true).' };
  }
  if (isLoopback(config.host)) return { enabled: true, reason: `The terminal is on because Tablo listens on ${config.host} (this machine only).`, howToEnable: '' };
  return {
    enabled: false,
    reason: `The terminal is off because Tablo listens on ${config.host}, reachable from other machines.`,
    howToEnable: 'Start Tablo with HOST=127.0.0.1 (--host 127.0.0.1), or set NC_TERMINAL=1 (--terminal) to allow it on every address.',
  };
}
