/**
 * The delivery worker: claims due deliveries from the metadata queue with a lease, sends them a
 * few at a time, and records each attempt. A failed attempt (network, 5xx, 429, time-out) is
 * retried after `retryBaseMs * 2^(attempt-1)` up to LIMITS.hookMaxAttempts, then marked error.
 * Pending deliveries stay in the store, so a restarted instance (or another one sharing the
 * store, once a lease runs out) delivers them. Writers never wait for it.
 */
import type { AppContext } from '../context';
import { LIMITS } from '../config/limits';
import { newId } from '../lib/ids';
import { hooksRepo, type HookRecord } from '../meta/hooks-repo';
import { TtlCache } from '../lib/ttl-cache';
import { hookQueueRepo, type AttemptOutcome, type DeliveryRecord } from '../meta/hook-queue-repo';
import { notificationOf, secretOf } from './hook-model';
import { sendOnce, type HookPayload, type SendResult } from './send';

export interface WorkerOptions {
  retryBaseMs: number;
  timeoutMs: number;
  pollMs: number;
  concurrency?: number;
}

/** Starts the worker; `wake()` looks for work at once, `stop()` ends it (in-flight attempts are given back). */
export function startDeliveryWorker(ctx: AppContext, opts: WorkerOptions) {
  const owner = newId('wk');
  const queue = hookQueueRepo(ctx.meta);
  const hooks = hooksRepo(ctx.meta);
  const concurrency = opts.concurrency ?? LIMITS.hookConcurrency;
  const shutdown = new AbortController();
  const inFlight = new Map<string, Promise<void>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scanning = false;
  let again = false;
  let stopped = false;

  // Hooks read for deliveries, kept a second (a burst of deliveries of one hook reads it once).
  const hookCache = new TtlCache<string, Promise<HookRecord | undefined>>(1000, 1000);
  const hookOf = (id: string) => {
    let p = hookCache.get(id);
    if (!p) hookCache.set(id, (p = hooks.byId(id)));
    return p;
  };

  const attemptOf = async (d: DeliveryRecord): Promise<SendResult> => {
    const hook = await hookOf(d.hook_id);
    if (!hook) return { ok: false, retryable: false, status: null, error: 'The hook was deleted', durationMs: 0 };
    if (hook.active !== 1) return { ok: false, retryable: false, status: null, error: 'The hook was paused before this delivery was sent', durationMs: 0 };
    const payload = JSON.parse(d.payload) as HookPayload;
    return sendOnce(notificationOf(hook), payload, {
      mailOwner: ctx,
      secret: secretOf(hook, ctx.secrets.connectionKey),
      timeoutMs: opts.timeoutMs,
      allowPrivate: ctx.config.apiClientAllowPrivate,
      deliveryId: d.id,
      signal: shutdown.signal,
    });
  };

  const deliver = async (d: DeliveryRecord): Promise<void> => {
    let r: SendResult;
    try {
      r = await attemptOf(d);
    } catch (e) {
      r = { ok: false, retryable: false, status: null, error: `The hook cannot be delivered: ${(e as Error).message}`, durationMs: 0 };
    }
    if (shutdown.signal.aborted && !r.ok) {
      await queue.release(d).catch(() => {});
      return;
    }
    const attempt = d.attempt + 1;
    const retry = !r.ok && r.retryable && attempt < LIMITS.hookMaxAttempts;
    const nextAt = retry ? new Date(Date.now() + opts.retryBaseMs * 2 ** (attempt - 1)).toISOString() : undefined;
    if (!r.ok && !retry) ctx.log.error(`hook ${d.hook_id}: delivery ${d.id} failed after ${attempt} attempt(s): ${r.error}`);
    await record(d, { status: r.ok ? 'success' : retry ? 'pending' : 'error', attempt, nextAt, responseStatus: r.status, error: r.error, durationMs: r.durationMs });
    if (retry) schedule(opts.retryBaseMs * 2 ** (attempt - 1));
  };

  // Outcomes finished together are written in one transaction (fewer turns of the store's lock,
  // which the writes' audit lines share).
  let batch: { d: DeliveryRecord; outcome: AttemptOutcome; done: () => void; fail: (e: unknown) => void }[] = [];
  const record = (d: DeliveryRecord, outcome: AttemptOutcome) =>
    new Promise<void>((done, fail) => {
      batch.push({ d, outcome, done, fail });
      if (batch.length > 1) return;
      setTimeout(() => {
        const items = batch;
        batch = [];
        queue.finish(items).then(() => items.forEach((i) => i.done()), (e) => items.forEach((i) => i.fail(e)));
        prune(items.map((i) => i.d.hook_id));
      }, 1);
    });

  // Every LIMITS.hookLogKeep / 10 lines of a hook, its log is cut to the newest LIMITS.hookLogKeep.
  const written = new Map<string, number>();
  const prune = (hookIds: string[]) => {
    for (const id of hookIds) {
      const n = (written.get(id) ?? 0) + 1;
      written.set(id, n);
      if (n % Math.max(1, Math.floor(LIMITS.hookLogKeep / 10)) === 0) void queue.prune(id, LIMITS.hookLogKeep).catch((e) => ctx.log.error('hook log pruning', e));
    }
    if (written.size > 10_000) written.clear();
  };

  /** Claims what is due while slots are free. */
  const scan = async (): Promise<void> => {
    if (stopped) return;
    if (scanning) {
      again = true;
      return;
    }
    scanning = true;
    try {
      do {
        again = false;
        const free = concurrency - inFlight.size;
        // Claim in batches (a quarter of the slots at least) rather than one per finished delivery.
        if (free <= 0 || (inFlight.size > 0 && free < Math.max(1, concurrency >> 2))) break;
        const leaseUntil = new Date(Date.now() + opts.timeoutMs + 20_000).toISOString();
        const claimed = await queue.claim(owner, free, leaseUntil);
        for (const d of claimed) {
          const p = deliver(d)
            .catch((e) => ctx.log.error(`hook delivery ${d.id}`, e))
            .finally(() => {
              inFlight.delete(d.id);
              void scan();
            });
          inFlight.set(d.id, p);
        }
        if (claimed.length === free) again = true;
      } while (again && !stopped);
    } catch (e) {
      if (!stopped) ctx.log.error('hook worker', e);
    } finally {
      scanning = false;
    }
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    setTimeout(() => void scan(), Math.max(0, ms) + 5).unref?.();
  };

  const poll = () => {
    if (stopped) return;
    timer = setTimeout(() => void scan().finally(poll), opts.pollMs);
    timer.unref?.();
  };
  poll();
  void scan();

  return {
    wake: () => void scan(),
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      shutdown.abort();
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
