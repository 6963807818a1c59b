/**
 * Webhooks in a running app: the dashboard operations, the subscriber that queues deliveries for
 * committed writes, and the delivery worker (stopped by app.close).
 */
import type { AppContext } from '../context';
import { registerOps } from '../api/dashboard/registry';
import { hookDispatcher } from './dispatcher';
import { HOOK_OPS } from './ops';
import { startDeliveryWorker } from './worker';

export function startHooks(ctx: AppContext): void {
  registerOps(HOOK_OPS);
  const worker = startDeliveryWorker(ctx, { retryBaseMs: ctx.config.hookRetryBaseMs, timeoutMs: ctx.config.hookTimeoutMs, pollMs: ctx.config.hookPollMs });
  const unsubscribe = ctx.writeEvents.subscribe(hookDispatcher(ctx, worker.wake));
  // Stopped before the project databases close (an in-flight job may still use them).
  ctx.closers.unshift(async () => {
    unsubscribe();
    await worker.stop();
  });
}
