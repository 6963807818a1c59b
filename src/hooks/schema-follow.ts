/**
 * Keeps webhooks in step with schema changes made through Tablo: a renamed table moves its hooks
 * (they were left under the old name, fired no more and vanished from the table's Webhooks), a
 * renamed column is renamed in the hooks' conditions where they name it by its SQL name, a column
 * shown under a new display name is renamed in the conditions and templates (`{{ data.Qty }}`) that
 * name it by that name, and a dropped table takes its hooks with their queued deliveries and logs.
 */
import { onSchemaEvent } from '../schema/schema-events';
import { mapWhereColumns } from '../../common/where-columns';
import { hooksRepo } from '../meta/hooks-repo';

/** Starts following schema events; answers the function that stops it. */
export function followHookSchemaChanges(): () => void {
  return onSchemaEvent(async (e) => {
    const scope = [e.projectId, e.dbAlias];
    const repo = hooksRepo(e.meta);
    switch (e.kind) {
      case 'tableRenamed':
        await e.meta.run('UPDATE nc_hooks SET tn = ? WHERE project_id = ? AND db_alias = ? AND tn = ?', [e.to, ...scope, e.from]);
        break;
      case 'tableDropped':
        for (const h of await repo.list(e.projectId, e.dbAlias, e.tn)) await repo.remove(h);
        break;
      case 'columnRenamed':
        for (const h of await repo.list(e.projectId, e.dbAlias, e.tn)) {
          if (!h.where_cond) continue;
          const next = mapWhereColumns(h.where_cond, (c) => (c === e.from ? e.to : c));
          if (next !== h.where_cond) await repo.update({ ...h, where_cond: next });
        }
        break;
      case 'columnAliasRenamed':
        for (const h of await repo.list(e.projectId, e.dbAlias, e.tn)) {
          const where = h.where_cond ? mapWhereColumns(h.where_cond, (c) => (c === e.from ? e.to : c)) : h.where_cond;
          const notification = JSON.stringify(renameInTemplates(JSON.parse(h.notification), e.from, e.to));
          if (where !== h.where_cond || notification !== h.notification) await repo.update({ ...h, where_cond: where, notification });
        }
        break;
    }
  });
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every template text of a notification with `{{ data.from }}` and `{{ previous.from }}` naming `to` instead. */
function renameInTemplates(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    const tag = new RegExp(`(\\{\\{[{&#^/]?\\s*(?:data|previous)\\.)${escapeRe(from)}(\\s*\\}?\\}\\})`, 'g');
    return value.replace(tag, (_m, open: string, close: string) => `${open}${to}${close}`);
  }
  if (Array.isArray(value)) return value.map((v) => renameInTemplates(v, from, to));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameInTemplates(v, from, to)]));
  return value;
}
