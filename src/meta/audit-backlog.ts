/**
 * The audit records of data writes, which are written once the write has committed: a store that
 * cannot take them must not turn that committed write into an error (its caller would try it again,
 * and its events would not be sent). So writing them never throws. Records the store could not take
 * because it did not answer (503) are kept in memory, with the time they happened, and written with
 * the next records once it answers again: nothing else needs to watch the store, and a record is late
 * only while no one writes. At most AUDIT_BACKLOG_MAX are kept (the oldest go first, logged), and they
 * are lost if the instance stops meanwhile. Any other failure (the store refused the record) is logged
 * and the records dropped: trying them again would fail again, and take the next ones with them.
 */
import type { Logger } from '../lib/log';
import { isAppError } from '../lib/errors';
import { nowIso } from '../lib/ids';
import { auditRepo, type AuditEntry } from './audit-repo';
import type { MetaStore } from './store';

/** The most records kept while the store does not answer. */
export const AUDIT_BACKLOG_MAX = 10_000;

export interface AuditWriter {
  /** Writes the records (or keeps them for later); never throws. */
  write(entries: AuditEntry[]): Promise<void>;
  /** How many records wait for the store. */
  readonly waiting: number;
}

export function auditWriter(meta: MetaStore, log: Logger): AuditWriter {
  const repo = auditRepo(meta);
  let backlog: AuditEntry[] = [];
  return {
    get waiting() {
      return backlog.length;
    },
    async write(entries) {
      const at = nowIso();
      const late = backlog;
      backlog = [];
      const rows = [...late, ...entries.map((e) => (e.created_at ? e : { ...e, created_at: at }))];
      try {
        await repo.writeMany(rows);
        if (late.length) log.info(`audit: ${late.length} audit records kept while the metadata database did not answer are written`);
      } catch (e) {
        if (!(isAppError(e) && e.status === 503)) {
          log.error(`audit: ${rows.length} audit records could not be written`, e);
          return;
        }
        // Logged once per outage, not once per write.
        if (late.length === 0 && backlog.length === 0) log.error('audit: the metadata database does not answer; audit records are kept until it does', e);
        backlog = [...rows, ...backlog];
        const over = backlog.length - AUDIT_BACKLOG_MAX;
        if (over > 0) {
          backlog.splice(0, over);
          log.error(`audit: ${over} audit records are lost (more than ${AUDIT_BACKLOG_MAX} waited for the metadata database)`);
        }
      }
    },
  };
}
