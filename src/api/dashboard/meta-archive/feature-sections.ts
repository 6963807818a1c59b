/**
 * Archive sections of the features that keep metadata of their own: saved views, shared links
 * (their settings: a password is never exported, so a link that had one is not recreated), webhooks
 * (their signing secret is never exported: a url hook gets a new one) and, for the project, cron
 * jobs. Header values that look like credentials are left out of hooks and jobs alike. An archive
 * imported onto the project it came from keeps what the project already holds of these secrets:
 * the same link keeps its password, the same hook its signing secret, the same hook or job (same
 * URL) its credential header values.
 */
import { z } from 'zod';
import type { MetaStore } from '../../../meta/store';
import type { SchemaModel } from '../../../sql/model';
import { newId, nowIso, randomToken } from '../../../lib/ids';
import { seal } from '../../../lib/secret-box';
import { VIEW_TYPES } from '../../../meta/views-repo';
import { normalizeQueryParams } from '../../views/query-params';
import { isAppError } from '../../../lib/errors';
import { checkHeaders, checkTemplates, NotificationSchema } from '../../../hooks/notification';
import { parseHookCondition } from '../../../hooks/condition';
import { checkActionHeaders, CronActionSchema } from '../../../cron/action';
import { checkPattern } from '../../../cron/schedule';
import type { MetaSection } from './sections';

/** Header names whose values are credentials: never exported. */
const SECRET_HEADER = /authorization|token|secret|api[-_]?key|cookie|password/i;

/**
 * Secrets a section's clear removed in the running import's transaction, by that transaction, for
 * its write to put back on the same objects (clear runs right before write; see importProjectMeta).
 */
const removedLinkPasswords = new WeakMap<MetaStore, Map<string, string>>();
const removedHooks = new WeakMap<MetaStore, Map<string, { secret: string | null; notification: Record<string, unknown> }>>();
const removedCronActions = new WeakMap<MetaStore, Map<string, Record<string, unknown>>>();

/** Which stored hook an archived one is: same table, title and event. */
const hookKey = (h: { tn: string; title: string; event: string }) => `${h.tn}\u0000${h.title}\u0000${h.event}`;

/**
 * `value` with each credential header the archive left empty filled from the same header of `prior`,
 * the stored copy of the same hook or job, when both call the same URL.
 */
function withSecretsFrom<T>(value: T, prior: Record<string, unknown> | undefined): T {
  const v = value as Record<string, unknown>;
  if (!prior || !v.headers || typeof v.headers !== 'object' || !prior.headers || typeof prior.headers !== 'object' || v.url !== prior.url) return value;
  const before = prior.headers as Record<string, unknown>;
  const headers = Object.fromEntries(
    Object.entries(v.headers as Record<string, string>).map(([k, x]) => [k, x === '' && SECRET_HEADER.test(k) && typeof before[k] === 'string' ? before[k] : x]),
  );
  return { ...v, headers } as T;
}

/** The credential headers of an action/notification left empty (the archive did not hold their values). */
function emptiedSecrets(value: unknown): string[] {
  const headers = (value as { headers?: unknown }).headers;
  if (!headers || typeof headers !== 'object') return [];
  return Object.entries(headers as Record<string, string>).filter(([k, x]) => x === '' && SECRET_HEADER.test(k)).map(([k]) => k);
}

/** Tells `lost` which credential header values of `what` are empty after the import, to type again. */
function reportEmptied(value: unknown, what: string, lost: (what: string) => void): void {
  const names = emptiedSecrets(value);
  if (names.length) lost(`${what}: the value${names.length > 1 ? 's' : ''} of ${names.map((n) => `'${n}'`).join(', ')} ${names.length > 1 ? 'were' : 'was'} not in the archive: type ${names.length > 1 ? 'them' : 'it'} again`);
}

/** A copy of an action/notification without credential header values (their names are kept, empty). */
function withoutSecrets<T>(value: T): T {
  const v = value as Record<string, unknown>;
  if (!v || typeof v !== 'object' || !v.headers || typeof v.headers !== 'object') return value;
  const headers = Object.fromEntries(Object.entries(v.headers as Record<string, string>).map(([k, x]) => [k, SECRET_HEADER.test(k) ? '' : x]));
  return { ...v, headers } as T;
}

const ViewRow = z.object({
  id: z.string().min(1).max(100),
  tn: z.string().min(1).max(255),
  title: z.string().min(1).max(255),
  type: z.enum(VIEW_TYPES),
  view_order: z.number(),
  query_params: z.record(z.string(), z.unknown()),
  is_default: z.number().int(),
});
type ViewRow = z.infer<typeof ViewRow>;

/** Saved views; their query_params are checked again against this database's tables. */
export const viewsSection: MetaSection<ViewRow> = {
  name: 'views',
  rows: z.array(ViewRow),
  read: (meta, projectId, dbAlias) =>
    meta
      .all<Omit<ViewRow, 'query_params'> & { query_params: string }>('SELECT id, tn, title, type, view_order, query_params, is_default FROM nc_views WHERE project_id = ? AND db_alias = ? ORDER BY tn, view_order', [projectId, dbAlias])
      .then((rows) => rows.map((r) => ({ ...r, view_order: Number(r.view_order), is_default: Number(r.is_default), query_params: JSON.parse(r.query_params) }))),
  check(rows, model, skip) {
    return rows.filter((r) => {
      const t = model.tables.find((x) => x.tn === r.tn);
      if (!t) return skip(`view '${r.title}' of '${r.tn}': the table is not in this database`), false;
      try {
        r.query_params = normalizeQueryParams(t, r.type, r.query_params);
        return true;
      } catch (e) {
        skip(`view '${r.title}' of '${r.tn}': ${isAppError(e) ? e.message : 'its settings do not fit this table'}`);
        return false;
      }
    });
  },
  clear: async (tx, projectId, dbAlias) => {
    const links = await tx.all<{ uuid: string; password_hash: string | null }>('SELECT uuid, password_hash FROM nc_shared_views WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
    removedLinkPasswords.set(tx, new Map(links.filter((l) => l.password_hash).map((l) => [l.uuid, l.password_hash!])));
    await tx.run('DELETE FROM nc_shared_views WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
    await tx.run('DELETE FROM nc_views WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
  },
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      // The same id is kept when free (links of the archive point at it); a copy onto another project gets new ones.
      const taken = await tx.get('SELECT 1 AS x FROM nc_views WHERE id = ?', [r.id]);
      const id = taken ? newId('vw') : r.id;
      idMap.set(r.id, id);
      await tx.run(
        'INSERT INTO nc_views (id, project_id, db_alias, tn, title, type, view_order, query_params, is_default, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)',
        [id, projectId, dbAlias, r.tn, r.title, r.type, r.view_order, JSON.stringify(r.query_params), r.is_default, nowIso(), nowIso()],
      );
    }
  },
};

/** Ids of views written by the last import, archive id -> new id (shared links follow them). */
const idMap = new Map<string, string>();

const LinkRow = z.object({ uuid: z.string().min(1).max(100), view_id: z.string().min(1), allow_csv_download: z.number().int(), has_password: z.boolean(), created_by: z.string().nullable() });
type LinkRow = z.infer<typeof LinkRow>;

/** Shared links of the views, without passwords. */
export const sharedViewsSection: MetaSection<LinkRow> = {
  name: 'sharedViews',
  rows: z.array(LinkRow),
  read: (meta, projectId, dbAlias) =>
    meta
      .all<{ uuid: string; view_id: string; allow_csv_download: number; password_hash: string | null; created_by: string | null }>(
        'SELECT uuid, view_id, allow_csv_download, password_hash, created_by FROM nc_shared_views WHERE project_id = ? AND db_alias = ? ORDER BY created_at',
        [projectId, dbAlias],
      )
      .then((rows) => rows.map((r) => ({ uuid: r.uuid, view_id: r.view_id, allow_csv_download: Number(r.allow_csv_download), has_password: !!r.password_hash, created_by: r.created_by }))),
  check(rows, _model, skip, current) {
    return rows.filter((r) => {
      // The same link of this project keeps the password it has here.
      if (!r.has_password || current.some((c) => c.uuid === r.uuid && c.view_id === r.view_id && c.has_password)) return true;
      skip(`shared link ${r.uuid}: it had a password, which an export never holds; share the view again`);
      return false;
    });
  },
  clear: async () => {},
  async write(tx, projectId, dbAlias, rows) {
    const passwords = removedLinkPasswords.get(tx) ?? new Map<string, string>();
    removedLinkPasswords.delete(tx);
    for (const r of rows) {
      const viewId = idMap.get(r.view_id);
      const passwordHash = r.has_password ? passwords.get(r.uuid) : null;
      if (!viewId || !r.created_by || passwordHash === undefined) continue;
      const creator = await tx.get('SELECT 1 AS x FROM nc_users WHERE id = ?', [r.created_by]);
      if (!creator) continue;
      const taken = await tx.get('SELECT 1 AS x FROM nc_shared_views WHERE uuid = ?', [r.uuid]);
      await tx.run(
        'INSERT INTO nc_shared_views (uuid, view_id, project_id, db_alias, password_hash, allow_csv_download, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [taken ? crypto.randomUUID() : r.uuid, viewId, projectId, dbAlias, taken ? null : passwordHash, r.allow_csv_download, r.created_by, nowIso(), nowIso()],
      );
    }
  },
};

/** A zod issue for each 400 `check` throws (a template that does not parse, a bad cron pattern). */
const refusedBy =
  <T>(check: (v: T) => void) =>
  (v: T, ctx: z.RefinementCtx) => {
    try {
      check(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: isAppError(e) ? e.message : String(e) });
    }
  };

// A hook or job is checked as its editor checks it: an archive cannot bring in one that could
// never run (an unknown action, a URL that is none, a template or pattern that does not parse).
const HookRow = z.object({
  title: z.string().min(1).max(255),
  tn: z.string().min(1).max(255),
  event: z.enum(['after.insert', 'after.update', 'after.delete']),
  where_cond: z.string().max(4000).nullable(),
  active: z.number().int(),
  notification: NotificationSchema.superRefine(refusedBy(checkTemplates)).superRefine(refusedBy(checkHeaders)),
});
type HookRow = z.infer<typeof HookRow>;

/** Webhooks (a url hook's signing secret is made anew on import). */
export function hooksSection(connectionKey: () => string): MetaSection<HookRow> {
  return {
    name: 'hooks',
    rows: z.array(HookRow),
    read: (meta, projectId, dbAlias) =>
      meta
        .all<{ title: string; tn: string; event: string; where_cond: string | null; active: number; notification: string }>(
          'SELECT title, tn, event, where_cond, active, notification FROM nc_hooks WHERE project_id = ? AND db_alias = ? ORDER BY created_at',
          [projectId, dbAlias],
        )
        .then((rows) => rows.map((r) => ({ ...r, event: r.event as HookRow['event'], active: Number(r.active), notification: withoutSecrets(JSON.parse(r.notification)) }))),
    check(rows, model: SchemaModel, skip) {
      return rows.filter((r) => {
        const t = model.tables.find((x) => x.tn === r.tn);
        if (!t) return skip(`webhook '${r.title}' of '${r.tn}': the table is not in this database`), false;
        try {
          parseHookCondition(r.where_cond, t);
          return true;
        } catch (e) {
          skip(`webhook '${r.title}' of '${r.tn}': its condition does not fit this table: ${isAppError(e) ? e.message : String(e)}`);
          return false;
        }
      });
    },
    clear: async (tx, projectId, dbAlias) => {
      const stored = await tx.all<{ tn: string; title: string; event: string; secret: string | null; notification: string }>(
        'SELECT tn, title, event, secret, notification FROM nc_hooks WHERE project_id = ? AND db_alias = ?',
        [projectId, dbAlias],
      );
      removedHooks.set(tx, new Map(stored.map((h) => [hookKey(h), { secret: h.secret, notification: JSON.parse(h.notification) }])));
      await tx.run('DELETE FROM nc_hooks WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
    },
    async write(tx, projectId, dbAlias, rows, lost) {
      const before = removedHooks.get(tx) ?? new Map();
      removedHooks.delete(tx);
      for (const r of rows) {
        const prior = before.get(hookKey(r));
        const same = prior && prior.notification.type === r.notification.type && prior.notification.url === (r.notification as { url?: string }).url;
        r.notification = withSecretsFrom(r.notification, same ? prior.notification : undefined);
        reportEmptied(r.notification, `webhook '${r.title}' of '${r.tn}'`, lost);
        const secret = r.notification.type !== 'url' ? null : same && prior.secret ? prior.secret : seal(connectionKey(), `whsec_${randomToken(24)}`);
        await tx.run(
          'INSERT INTO nc_hooks (id, project_id, db_alias, tn, title, event, where_cond, active, notification, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [newId('hk'), projectId, dbAlias, r.tn, r.title, r.event, r.where_cond, r.active, JSON.stringify(r.notification), secret, nowIso(), nowIso()],
        );
      }
    },
  };
}

const CronRow = z
  .object({
    title: z.string().min(1).max(255),
    pattern: z.string().min(1).max(200),
    timezone: z.string().min(1).max(100),
    active: z.number().int(),
    action: CronActionSchema.superRefine(refusedBy(checkActionHeaders)),
  })
  .superRefine(refusedBy((r) => checkPattern(r.pattern, r.timezone)));
type CronRow = z.infer<typeof CronRow>;

/** Cron jobs of the project (a project-wide section: `project/crons.json`). */
export const cronsSection: MetaSection<CronRow> = {
  name: 'crons',
  rows: z.array(CronRow),
  read: (meta: MetaStore, projectId: string) =>
    meta
      .all<{ title: string; pattern: string; timezone: string; active: number; action: string }>('SELECT title, pattern, timezone, active, action FROM nc_crons WHERE project_id = ? ORDER BY created_at', [projectId])
      .then((rows) => rows.map((r) => ({ ...r, active: Number(r.active), action: withoutSecrets(JSON.parse(r.action)) }))),
  check: (rows) => rows,
  clear: async (tx, projectId) => {
    const stored = await tx.all<{ title: string; action: string }>('SELECT title, action FROM nc_crons WHERE project_id = ?', [projectId]);
    removedCronActions.set(tx, new Map(stored.map((c) => [c.title, JSON.parse(c.action)])));
    await tx.run('DELETE FROM nc_crons WHERE project_id = ?', [projectId]);
  },
  async write(tx, projectId, _dbAlias, rows, lost) {
    const before = removedCronActions.get(tx) ?? new Map<string, Record<string, unknown>>();
    removedCronActions.delete(tx);
    for (const r of rows) {
      r.action = withSecretsFrom(r.action, before.get(r.title));
      reportEmptied(r.action, `cron job '${r.title}'`, lost);
      await tx.run('INSERT INTO nc_crons (id, project_id, title, pattern, timezone, active, action, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)', [
        newId('cr'), projectId, r.title, r.pattern, r.timezone, r.active, JSON.stringify(r.action), nowIso(), nowIso(),
      ]);
    }
  },
};
