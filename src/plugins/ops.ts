/**
 * App Store operations (api-contract section 6), Super Admin only: `xcPluginList` (each plugin with
 * its category, status, form fields and input, secrets masked), `xcPluginSet { title, input,
 * active }` (input null uninstalls; Branding may carry a logo file in a multipart call) and
 * `xcPluginTest { title, input, to? }` (sends a mail, stores and reads a file, posts a message) and
 * `xcPluginSecrets { title }` (a chat plugin's webhook URL in full, which lists mask, for the Super
 * Admin who asks: Show values, as for the header values of webhooks and cron jobs).
 */
import { z } from 'zod';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DashboardOp, OpCall } from '../api/dashboard/op';
import { parseArgs } from '../api/dashboard/op';
import { badRequest, forbidden, notFound, AppError } from '../lib/errors';
import { pluginsRepo } from '../meta/plugins-repo';
import { filesRepo } from '../meta/files-repo';
import { auditRepo } from '../meta/audit-repo';
import { LIMITS } from '../config/limits';
import { PLUGINS, SINGLE_ACTIVE, pluginByTitle, type PluginDef } from './catalog';
import { fieldsOf, maskInput, MASK, secretNames } from './fields';
import { applyPlugins } from './state';
import { testPlugin } from './plugin-test';
import { mailLanguageOf } from '../lib/mail-language';

const requireSuper = ({ actor }: OpCall) => {
  if (!(actor.kind === 'master' || (actor.superAdmin && !actor.previewAs))) throw forbidden('Only the Super Admin manages the App Store');
};

const repoOf = (call: OpCall) => pluginsRepo(call.ctx.meta, call.ctx.secrets.connectionKey);

const known = (title: string): PluginDef => {
  const p = pluginByTitle(title);
  if (!p) throw notFound(`Unknown plugin '${title}'`);
  return p;
};

/** The caller's input checked against the plugin's schema; masked secrets keep their stored value. */
function checkedInput(p: PluginDef, raw: unknown, stored: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('input must be an object');
  const merged: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const k of secretNames(p)) if (merged[k] === MASK || merged[k] === undefined) merged[k] = stored?.[k];
  for (const [k, v] of Object.entries(merged)) if (v === '' || v === null) delete merged[k];
  const r = p.schema.safeParse(merged);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const field = fieldsOf(p).find((f) => f.name === String(i.path[0]));
    // A required field left empty is missing from the input: said so, not zod's type message.
    if (field && i.path.length === 1 && merged[field.name] === undefined) throw badRequest(`${field.label} is required`);
    throw badRequest(field ? `${field.label}: ${i.message}` : i.message);
  }
  return r.data as Record<string, unknown>;
}

const SetArgs = z.object({ title: z.string().min(1, 'title is required'), input: z.unknown().optional(), active: z.boolean().optional() });
const TestArgs = z.object({ title: z.string().min(1, 'title is required'), input: z.unknown().optional(), to: z.string().optional() });

const LOGO_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

/** Keeps an uploaded logo in `<dataDir>/branding` and answers its URL. */
async function saveLogo(call: OpCall, file: File): Promise<string> {
  if (!LOGO_TYPES[file.type]) throw badRequest('The logo must be a PNG, JPEG, GIF, WebP or SVG image');
  if (file.size > LIMITS.brandingLogoMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The logo is larger than ${LIMITS.brandingLogoMaxBytes} bytes`);
  const dir = join(call.ctx.dataDir, 'branding');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'logo'), new Uint8Array(await file.arrayBuffer()));
  await writeFile(join(dir, 'logo.type'), file.type);
  return `/api/branding/logo?v=${Date.now()}`;
}

export const xcPluginList: DashboardOp = {
  name: 'xcPluginList',
  access: 'signedIn',
  async run(call) {
    requireSuper(call);
    const rows = new Map((await repoOf(call).list()).map((r) => [r.title, r]));
    return {
      list: PLUGINS.map((p) => {
        const row = rows.get(p.title);
        return {
          title: p.title,
          category: p.category,
          icon: p.icon,
          description: p.description,
          installed: !!row,
          active: row ? row.active : p.title === 'Local' && ![...rows.values()].some((r) => r.category === 'Storage' && r.active),
          fields: fieldsOf(p),
          input: row ? maskInput(p, row.input) : null,
          updatedAt: row?.updatedAt ?? null,
        };
      }),
    };
  },
};

export const xcPluginSet: DashboardOp = {
  name: 'xcPluginSet',
  access: 'signedIn',
  async run(call) {
    requireSuper(call);
    const a = parseArgs(SetArgs, call.args);
    const p = known(a.title);
    const repo = repoOf(call);
    const stored = await repo.get(p.title);
    const audit = (description: string) => auditRepo(call.ctx.meta).write({ op_type: 'PLUGIN', description, user_email: call.actor.email ?? null });
    if (a.input === null) {
      if (!stored) throw notFound(`The ${p.title} plugin is not installed`);
      // Files stored in S3 are read through its plugin: uninstalled, they would answer 404 for good.
      const held = p.title === 'S3' ? await filesRepo(call.ctx.meta).countIn('S3') : 0;
      if (held > 0) throw badRequest(`The S3 storage still holds attachment files (${held}), which could not be opened without it: make Local active instead (S3 stays configured and its files readable)`);
      if (!(await repo.remove(p.title))) throw notFound(`The ${p.title} plugin is not installed`);
      await applyPlugins(call.ctx);
      await audit(`${p.title} plugin uninstalled`);
      return { msg: `The ${p.title} plugin was uninstalled` };
    }
    const raw = { ...((a.input ?? stored?.input ?? {}) as Record<string, unknown>) };
    if (call.file && p.title === 'Branding') raw.logoUrl = await saveLogo(call, call.file);
    const input = checkedInput(p, raw, stored?.input);
    const active = a.active ?? stored?.active ?? true;
    await repo.save({ title: p.title, category: p.category, input, active, secrets: secretNames(p), exclusive: SINGLE_ACTIVE.includes(p.category) });
    await applyPlugins(call.ctx);
    await audit(stored ? `${p.title} plugin changed` : `${p.title} plugin installed`);
    return { msg: `The ${p.title} plugin was saved`, title: p.title, active, input: maskInput(p, input) };
  },
};

export const xcPluginTest: DashboardOp = {
  name: 'xcPluginTest',
  access: 'signedIn',
  async run(call) {
    requireSuper(call);
    const a = parseArgs(TestArgs, call.args);
    const p = known(a.title);
    const stored = await repoOf(call).get(p.title);
    const input = checkedInput(p, a.input ?? stored?.input ?? {}, stored?.input);
    const to = a.to?.trim() || call.actor.email;
    const msg = await testPlugin(call.ctx, p, input, to, mailLanguageOf(call.request.headers.get('accept-language')));
    return { ok: true, msg };
  },
};

const SecretsArgs = z.object({ title: z.string().min(1, 'title is required') });

/** The secret values of an installed chat plugin in full (`{ input: { webhookUrl } }`); other plugins' secrets are never shown. */
export const xcPluginSecrets: DashboardOp = {
  name: 'xcPluginSecrets',
  access: 'signedIn',
  async run(call) {
    requireSuper(call);
    const p = known(parseArgs(SecretsArgs, call.args).title);
    if (p.category !== 'Chat') throw badRequest(`The secrets of the ${p.title} plugin are never shown: type them again to change them`);
    const stored = await repoOf(call).get(p.title);
    if (!stored) throw notFound(`The ${p.title} plugin is not installed`);
    return { input: Object.fromEntries(secretNames(p).filter((k) => typeof stored.input[k] === 'string').map((k) => [k, stored.input[k]])) };
  },
};

export const PLUGIN_OPS: DashboardOp[] = [xcPluginList, xcPluginSet, xcPluginTest, xcPluginSecrets];
