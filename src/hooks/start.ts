/**
 * Webhooks in a running app: the dashboard operations, the subscriber that queues deliveries for
 * committed writes, the delivery worker, and the follower of table and column renames (stopped by app.close).
 */
import type { AppContext } from '../context';
import { registerOps } from '../api/dashboard/registry';
import { hookDispatcher } from './dispatcher';
import { HOOK_OPS } from './ops';
import { startDeliveryWorker } from './worker';
import { followHookSchemaChanges } from './schema-follow';

export function startHooks(ctx: AppContext): void {
  registerOps(HOOK_OPS);
  const worker = startDeliveryWorker(ctx, { retryBaseMs: ctx.config.hookRetryBaseMs, timeoutMs: ctx.config.hookTimeoutMs, pollMs: ctx.config.hookPollMs });
  const unsubscribe = ctx.writeEvents.subscribe(hookDispatcher(ctx, worker.wake));
  const stopFollowing = followHookSchemaChanges();
  // Stopped before the project databases close (an in-flight job may still use them).
  ctx.closers.unshift(async () => {
    unsubscribe();
    stopFollowing();
    await worker.stop();
  });
}
