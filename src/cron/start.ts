/** Cron jobs in a running app: the dashboard operations and the scheduler (stopped by app.close). */
import type { AppContext } from '../context';
import { registerOps } from '../api/dashboard/registry';
import { CRON_OPS } from './ops';
import { startScheduler } from './scheduler';

export function startCrons(ctx: AppContext): void {
  registerOps(CRON_OPS);
  const scheduler = startScheduler(ctx);
  // Stopped before the project databases close (an in-flight job may still use them).
  ctx.closers.unshift(() => scheduler.stop());
}
