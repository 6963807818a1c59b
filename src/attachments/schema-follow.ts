/**
 * Keeps nc_files in step with schema changes made through Tablo: a renamed table or column renames
 * the stored files' table or column (so the sweep still finds their cells); a dropped one flags its
 * files, which the next sweep removes from storage.
 */
import { onSchemaEvent } from '../schema/schema-events';

/** Starts following schema events; answers the function that stops it. */
export function followSchemaChanges(): () => void {
  return onSchemaEvent(async (e) => {
    const scope = [e.projectId, e.dbAlias];
    switch (e.kind) {
      case 'tableRenamed':
        await e.meta.run('UPDATE nc_files SET tn = ? WHERE project_id = ? AND db_alias = ? AND tn = ?', [e.to, ...scope, e.from]);
        break;
      case 'columnRenamed':
        await e.meta.run('UPDATE nc_files SET cn = ? WHERE project_id = ? AND db_alias = ? AND tn = ? AND cn = ?', [e.to, ...scope, e.tn, e.from]);
        break;
      case 'tableDropped':
        await e.meta.run('UPDATE nc_files SET check_due = 1 WHERE project_id = ? AND db_alias = ? AND tn = ?', [...scope, e.tn]);
        break;
      case 'columnDropped':
        await e.meta.run('UPDATE nc_files SET check_due = 1 WHERE project_id = ? AND db_alias = ? AND tn = ? AND cn = ?', [...scope, e.tn, e.cn]);
        break;
    }
  });
}
