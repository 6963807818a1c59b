/**
 * Keeps the rows' comments and history in step with schema changes made through Tablo: they are
 * kept by table and column SQL names, so a renamed table takes its comments and its rows' history
 * along, and a renamed column its entries in the history. Those of a dropped table or column are
 * kept: a rollback brings the object back with them.
 */
import { onSchemaEvent, type SchemaEvent } from '../../schema/schema-events';
import { commentsRepo } from '../../meta/comments-repo';
import { auditRepo } from '../../meta/audit-repo';

/** Applies one schema event to the stored comments and history. */
export async function followRowActivitySchemaEvent(e: SchemaEvent): Promise<void> {
  if (e.kind === 'tableRenamed') {
    await commentsRepo(e.meta).renameTable(e.projectId, e.dbAlias, e.from, e.to);
    await auditRepo(e.meta).renameTable(e.projectId, e.dbAlias, e.from, e.to);
  } else if (e.kind === 'columnRenamed') {
    await auditRepo(e.meta).renameColumn(e.projectId, e.dbAlias, e.tn, e.from, e.to);
  }
}

let registered = false;

/** Starts following schema events (once per process). */
export function followRowActivitySchemaEvents(): void {
  if (registered) return;
  registered = true;
  onSchemaEvent(followRowActivitySchemaEvent);
}
