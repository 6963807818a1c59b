/**
 * The webhook delivery queue (nc_hook_deliveries: pending deliveries only) and the log of attempts
 * (nc_hook_logs, the newest LIMITS.hookLogKeep per hook). A
 * delivery is claimed with a lease (UPDATE ... WHERE lease_until < now), so instances sharing the
 * store deliver it once; a crashed instance's lease runs out and another takes the delivery over.
 */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';

export interface DeliveryRecord {
  id: string;
  hook_id: string;
  event: string;
  payload: string;
  status: 'pending' | 'success' | 'error';
  attempt: number;
  next_at: string;
  lease_until: string;
  lease_owner: string | null;
  response_status: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptLog {
  id: string;
  hook_id: string;
  delivery_id: string | null;
  event: string;
  status: 'pending' | 'success' | 'error';
  attempt: number;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  status: DeliveryRecord['status'];
  attempt: number;
  nextAt?: string;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

/** The queue repository over a metadata store. */
export function hookQueueRepo(meta: MetaStore) {
  return {
    /** Queues deliveries (one transaction); answers their ids. */
    async enqueue(items: { hookId: string; event: string; payload: string }[]): Promise<string[]> {
      const now = nowIso();
      const ids = items.map(() => newId('hd'));
      await meta.transaction(async (tx) => {
        for (const [i, it] of items.entries()) {
          await tx.run(
            `INSERT INTO nc_hook_deliveries (id, hook_id, event, payload, status, attempt, next_at, lease_until, created_at, updated_at)
             VALUES (?, ?, ?, ?, 'pending', 0, ?, '', ?, ?)`,
            [ids[i], it.hookId, it.event, it.payload, now, now, now],
          );
        }
      });
      return ids;
    },
    /**
     * Claims up to `limit` due deliveries for `owner` until `leaseUntil` in one UPDATE ... RETURNING
     * (SQLite and PostgreSQL); a lease still held by someone else is not taken.
     */
    async claim(owner: string, limit: number, leaseUntil: string): Promise<DeliveryRecord[]> {
      const now = nowIso();
      // A read first: an idle poll takes no write lock.
      const any = await meta.get(`SELECT id FROM nc_hook_deliveries WHERE status = 'pending' AND next_at <= ? AND lease_until < ? LIMIT 1`, [now, now]);
      if (!any) return [];
      return meta.all<DeliveryRecord>(
        `UPDATE nc_hook_deliveries SET lease_until = ?, lease_owner = ?
         WHERE id IN (SELECT id FROM nc_hook_deliveries WHERE status = 'pending' AND next_at <= ? AND lease_until < ? ORDER BY next_at, id LIMIT ?)
           AND status = 'pending' AND lease_until < ?
         RETURNING *`,
        [leaseUntil, owner, now, now, limit, now],
      );
    },
    /**
     * Records attempts' outcomes (one transaction): the attempt's log line, and the delivery's new
     * state while it is pending; a finished delivery leaves the queue (its log lines remain).
     */
    async finish(done: { d: DeliveryRecord; outcome: AttemptOutcome }[]): Promise<void> {
      if (done.length === 0) return;
      const now = nowIso();
      await meta.transaction(async (tx) => {
        for (const { d, outcome } of done) {
          if (outcome.status === 'pending') {
            await tx.run(
              `UPDATE nc_hook_deliveries SET attempt = ?, next_at = ?, lease_until = '', lease_owner = NULL, response_status = ?, error = ?, updated_at = ? WHERE id = ?`,
              [outcome.attempt, outcome.nextAt ?? d.next_at, outcome.responseStatus, outcome.error, now, d.id],
            );
          } else {
            await tx.run('DELETE FROM nc_hook_deliveries WHERE id = ?', [d.id]);
          }
          await tx.run(
            `INSERT INTO nc_hook_logs (id, hook_id, delivery_id, event, status, attempt, response_status, error, duration_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [newId('hl'), d.hook_id, d.id, d.event, outcome.status, outcome.attempt, outcome.responseStatus, outcome.error, Math.round(outcome.durationMs), now],
          );
        }
      });
    },
    /** Keeps the newest `keep` log lines of a hook. */
    prune: (hookId: string, keep: number) =>
      meta.run(
        `DELETE FROM nc_hook_logs WHERE hook_id = ? AND created_at < (SELECT created_at FROM nc_hook_logs WHERE hook_id = ? ORDER BY created_at DESC LIMIT 1 OFFSET ?)`,
        [hookId, hookId, Math.max(0, keep - 1)],
      ),
    /** Gives a claimed delivery back without counting an attempt (shutdown). */
    release: (d: DeliveryRecord) => meta.run(`UPDATE nc_hook_deliveries SET lease_until = '', lease_owner = NULL WHERE id = ? AND lease_owner = ?`, [d.id, d.lease_owner]),
    /** Logs an attempt that was not queued (a test, or a hook that could not fire). */
    async logOnly(hookId: string, event: string, outcome: { status: 'success' | 'error'; responseStatus: number | null; error: string | null; durationMs: number }): Promise<AttemptLog> {
      const row: AttemptLog = {
        id: newId('hl'), hook_id: hookId, delivery_id: null, event, status: outcome.status, attempt: 1,
        response_status: outcome.responseStatus, error: outcome.error, duration_ms: Math.round(outcome.durationMs), created_at: nowIso(),
      };
      await meta.run(
        `INSERT INTO nc_hook_logs (id, hook_id, delivery_id, event, status, attempt, response_status, error, duration_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.hook_id, null, row.event, row.status, 1, row.response_status, row.error, row.duration_ms, row.created_at],
      );
      return row;
    },
    /** Newest attempts first, with queued deliveries not yet attempted (status pending, attempt 0). */
    async logs(hookId: string, limit: number): Promise<AttemptLog[]> {
      const attempts = await meta.all<AttemptLog>('SELECT * FROM nc_hook_logs WHERE hook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?', [hookId, limit]);
      const waiting = await meta.all<DeliveryRecord>(`SELECT * FROM nc_hook_deliveries WHERE hook_id = ? AND status = 'pending' AND attempt = 0 ORDER BY created_at DESC LIMIT ?`, [hookId, limit]);
      const queued: AttemptLog[] = waiting.map((d) => ({ id: d.id, hook_id: d.hook_id, delivery_id: d.id, event: d.event, status: 'pending', attempt: 0, response_status: null, error: null, duration_ms: 0, created_at: d.created_at }));
      return [...queued, ...attempts].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).slice(0, limit);
    },
  };
}
