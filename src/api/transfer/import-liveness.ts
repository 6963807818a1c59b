/**
 * Who runs an import. On a PostgreSQL metadata store (several instances on one data directory) the
 * instance running an import holds the lease `import:<job id>` (src/meta/leases.ts), taken before its
 * job file is first written and renewed while it runs; it is never released, only left to lapse, so
 * that a reader of an older 'running' state never takes a job that has just ended for left behind.
 * A job file still 'running' whose lease has lapsed was left by an instance that ended abruptly
 * (killed, power loss). On the embedded SQLite store one process holds the data directory
 * (boot/data-dir-lock.ts): a job it does not run itself is nobody's.
 */
import type { MetaStore } from '../../meta/store';
import { leases } from '../../meta/leases';

/** How long a running import's lease lasts without renewal, and how often it is renewed. */
const LEASE_MS = 20_000;
const RENEW_MS = 5_000;

const leaseName = (jobId: string) => `import:${jobId}`;

/** Takes the lease of a starting import and renews it until the answered stop is called. */
export async function holdRunLease(meta: MetaStore, jobId: string, onError: (e: unknown) => void): Promise<() => void> {
  if (meta.kind !== 'pg') return () => {};
  const lease = leases(meta);
  await lease.acquire(leaseName(jobId), LEASE_MS);
  const timer = setInterval(() => void lease.acquire(leaseName(jobId), LEASE_MS).catch(onError), RENEW_MS);
  return () => clearInterval(timer);
}

/**
 * True when no live instance runs the job (that this process does not run itself): its lease lapsed,
 * and is now this instance's, so that no other instance takes it over at the same time.
 */
export async function takeOverLeftJob(meta: MetaStore, jobId: string): Promise<boolean> {
  if (meta.kind !== 'pg') return true;
  return leases(meta).acquire(leaseName(jobId), LEASE_MS);
}
