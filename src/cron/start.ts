/** Cron jobs in a running app: the dashboard operations, the scheduler and the clean-up of left runs (stopped by app.close). */
import type { AppContext } from '../context';
import { registerOps } from '../api/dashboard/registry';
import { CRON_OPS } from './ops';
import { startScheduler } from './scheduler';
import { startLeftRunsSweep } from './left-runs';

export function startCrons(ctx: AppContext): void {
  registerOps(CRON_OPS);
  const scheduler = startScheduler(ctx);
  const leftRuns = startLeftRunsSweep(ctx);
  // Stopped before the project databases close (an in-flight job may still use them); the liveness
  // lease is given up once this instance's runs are recorded.
  ctx.closers.unshift(async () => {
    await scheduler.stop();
    await leftRuns.stop();
  });
}
