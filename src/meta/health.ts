/**
 * The metadata store's health for GET /api/health: a `SELECT 1` answered within a time limit. A
 * load balancer may ask many times a second, so an answer is reused for a moment, and a ping still
 * running is awaited rather than joined by another: while the store hangs, a ping older than the
 * limit counts as a failure, and a new one starts only once it is older than `abandonMs` (a dead
 * connection can keep a ping unsettled for many seconds after the store is back).
 */
import type { Logger } from '../lib/log';
import type { MetaStore } from './store';

export interface MetaHealthOptions {
  /** A ping slower than this is a failure. */
  timeoutMs?: number;
  /** How long an answer is reused. */
  cacheMs?: number;
  /** A ping unsettled for this long is left to itself and a new one started (default: three limits). */
  abandonMs?: number;
}

/** Answers a function that tells whether the store answers now (true) or not (false); it never throws. */
export function metaHealth(meta: MetaStore, log: Logger, opts: MetaHealthOptions = {}): () => Promise<boolean> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  const cacheMs = opts.cacheMs ?? 1000;
  const abandonMs = opts.abandonMs ?? timeoutMs * 3;
  let last: { ok: boolean; at: number } | null = null;
  /** The ping running now: it settles with undefined when the store answered, else with why not. */
  let ping: { started: number; done: Promise<unknown> } | null = null;
  let answering: Promise<boolean> | null = null;

  const startPing = () => {
    const done = meta.get('SELECT 1 AS one').then(
      () => undefined,
      (e: unknown) => e ?? new Error('the ping failed'),
    );
    const p = { started: Date.now(), done };
    void done.then(() => {
      if (ping === p) ping = null;
    });
    return (ping = p);
  };

  /** Undefined when the store answered in time, else why not. */
  const check = async (): Promise<unknown> => {
    const p = ping && Date.now() - ping.started < abandonMs ? ping : startPing();
    const late = `no answer within ${timeoutMs} ms`;
    const left = p.started + timeoutMs - Date.now();
    if (left <= 0) return late;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([p.done, new Promise((resolve) => (timer = setTimeout(() => resolve(late), left)))]);
    } finally {
      clearTimeout(timer);
    }
  };

  return async () => {
    if (last && Date.now() - last.at < cacheMs) return last.ok;
    // Checks arriving together share one answer.
    answering ??= check().then((why) => {
      const ok = why === undefined;
      // Logged once per outage, not once per check.
      if (!ok && last?.ok !== false) log.error('health: the metadata database is unreachable', why);
      last = { ok, at: Date.now() };
      answering = null;
      return ok;
    });
    return answering;
  };
}
