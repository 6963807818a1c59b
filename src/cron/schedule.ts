/**
 * Cron patterns: standard 5-field (minute precision) or 6-field (seconds first) expressions with
 * an IANA time zone, parsed by croner (maintained, no dependencies, time zones and DST handled,
 * next-run enumeration built in). A pattern is checked on save: a bad one, or one that never runs,
 * is a 400 naming it.
 */
import { Cron } from 'croner';
import { badRequest } from '../lib/errors';

/** A paused croner job used only to compute run times (it never schedules anything itself). */
export function cronOf(pattern: string, timezone: string): Cron {
  const fields = pattern.trim().split(/\s+/).length;
  if (!pattern.trim().startsWith('@') && fields !== 5 && fields !== 6) {
    throw badRequest(`Invalid cron pattern '${pattern}': it has ${fields} field(s); use 5 (minute hour day month weekday) or 6 (second first)`);
  }
  let c: Cron;
  let next: Date | null;
  try {
    c = new Cron(pattern, { timezone, paused: true, mode: '5-or-6-parts' });
    next = c.nextRun();
  } catch (e) {
    const msg = (e as Error).message.replace(/^Cron\w*:\s*/, '');
    if (/time ?zone/i.test(msg)) throw badRequest(`Unknown time zone '${timezone}'`);
    throw badRequest(`Invalid cron pattern '${pattern}': ${msg}`);
  }
  // A day that no month has (31 February) parses, but such a job would never run.
  if (!next) {
    c.stop();
    throw badRequest(`Invalid cron pattern '${pattern}': it never matches a date`);
  }
  return c;
}

/** Checks a pattern and time zone (400 naming the bad one). */
export function checkPattern(pattern: string, timezone: string): void {
  cronOf(pattern, timezone).stop();
}

/** The next `n` run times after `from` (ISO strings). */
export function nextRuns(pattern: string, timezone: string, n: number, from: Date = new Date()): string[] {
  const c = cronOf(pattern, timezone);
  const out = c.nextRuns(n, from).map((d) => d.toISOString());
  c.stop();
  return out;
}
