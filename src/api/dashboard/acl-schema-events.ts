/**
 * Keeps data rights and Meta Management in step with schema changes made through Tablo: a renamed
 * table takes its rules and its hidden-from roles along; a renamed column is renamed in the rules'
 * column lists and row conditions. Rules of a dropped table or column are kept: a rollback brings
 * the object back under the same rules, and a stale name only ever narrows what a role sees.
 */
import { onSchemaEvent, type SchemaEvent } from '../../schema/schema-events';
import { aclRepo, type ColumnGrant, type TableRule } from '../../meta/acl-repo';
import { mapWhereColumns } from '../../../common/where-columns';

const renamedGrant = (g: ColumnGrant, from: string, to: string): ColumnGrant => (Array.isArray(g) ? g.map((c) => (c === from ? to : c)) : g);

/** A rule with column `from` renamed to `to`. */
export function renameInRule(rule: TableRule, from: string, to: string): TableRule {
  return {
    ...rule,
    read: renamedGrant(rule.read, from, to),
    create: renamedGrant(rule.create, from, to),
    update: renamedGrant(rule.update, from, to),
    ...(rule.where ? { where: mapWhereColumns(rule.where, (c) => (c === from ? to : c)) } : {}),
  };
}

/** Applies one schema event to the stored rights. */
export async function followAclSchemaEvent(e: SchemaEvent): Promise<void> {
  const repo = aclRepo(e.meta);
  if (e.kind === 'tableRenamed') return repo.renameTable(e.projectId, e.dbAlias, e.from, e.to);
  if (e.kind !== 'columnRenamed') return;
  // Read afresh, not from the cache another instance may not have dropped yet.
  repo.forget(e.projectId, e.dbAlias);
  const byRole = (await repo.rules(e.projectId, e.dbAlias)).get(e.tn) ?? {};
  for (const [role, rule] of Object.entries(byRole)) {
    const next = renameInRule(rule, e.from, e.to);
    if (JSON.stringify(next) !== JSON.stringify(rule)) await repo.save(e.projectId, e.dbAlias, e.tn, role, next);
  }
}

let registered = false;

/** Starts following schema events (once per process). */
export function followAclSchemaEvents(): void {
  if (registered) return;
  registered = true;
  onSchemaEvent(followAclSchemaEvent);
}
