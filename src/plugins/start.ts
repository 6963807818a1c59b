/**
 * The App Store in a running app: its dashboard operations, the plugins applied at start, the
 * branding and attachment routes, and the sweep of stored files no row holds (periodic, and soon
 * after committed updates and deletes of tables with stored files).
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../context';
import { registerOps } from '../api/dashboard/registry';
import { filesRepo } from '../meta/files-repo';
import { attachmentRoutes } from '../attachments/routes';
import { sweepAttachments } from '../attachments/sweep';
import { LIMITS } from '../config/limits';
import { followSchemaChanges } from '../attachments/schema-follow';
import { pluginsSignature } from '../meta/plugins-repo';
import { PLUGIN_OPS } from './ops';
import { applyPlugins, closePlugins } from './state';
import { brandingRoutes } from './branding-routes';

/** How often the plugin rows are checked for changes made by another instance. */
const PLUGIN_POLL_MS = 1_000;

export function startAppStore(ctx: AppContext) {
  registerOps(PLUGIN_OPS);
  // Instances sharing one metadata store (NC_DB) pick up each other's plugin changes within a second.
  let signature: string | null = null;
  const ready = (async () => {
    signature = await pluginsSignature(ctx.meta);
    await applyPlugins(ctx);
  })().catch((e) => ctx.log.error('App Store: could not apply the plugins', e));
  let running = false;
  const sweep = async (all: boolean) => {
    if (running) return;
    running = true;
    try {
      await ready;
      const r = await sweepAttachments(ctx, { all });
      if (r.removed) ctx.log.info(`attachment sweep: ${r.removed} of ${r.checked} stored files removed`);
    } catch (e) {
      ctx.log.error('attachment sweep failed', e);
    } finally {
      running = false;
    }
  };
  const timers: Timer[] = [];
  const stopFollowing = followSchemaChanges();
  let polling = false;
  timers.push(
    setInterval(async () => {
      if (polling) return;
      polling = true;
      try {
        const now = await pluginsSignature(ctx.meta);
        if (now !== signature) {
          signature = now;
          await applyPlugins(ctx);
        }
      } catch (e) {
        ctx.log.error('App Store: could not read the plugins', e);
      } finally {
        polling = false;
      }
    }, PLUGIN_POLL_MS),
  );
  if (ctx.config.attachmentSweepMs > 0) timers.push(setInterval(() => void sweep(true), ctx.config.attachmentSweepMs));
  let soon: Timer | null = null;
  const unsubscribe = ctx.writeEvents.subscribe(async (e) => {
    if (e.op === 'insert') return;
    const t = ctx.projects.peek(e.projectId, e.dbAlias)?.model.tables.find((x) => x.tn === e.tn);
    if (t && !t.columns.some((c) => c.uidt === 'Attachment')) return;
    await filesRepo(ctx.meta).flagTable(e.projectId, e.dbAlias, e.tn);
    if (ctx.config.attachmentSweepMs > 0 && !soon) soon = setTimeout(() => ((soon = null), void sweep(false)), LIMITS.attachmentSweepAfterWriteMs);
  });
  ctx.closers.unshift(async () => {
    unsubscribe();
    stopFollowing();
    for (const t of timers) clearInterval(t);
    if (soon) clearTimeout(soon);
    closePlugins(ctx);
  });
  return { ready, routes: new Elysia({ name: 'app-store' }).use(brandingRoutes(ctx)).use(attachmentRoutes(ctx)) };
}
