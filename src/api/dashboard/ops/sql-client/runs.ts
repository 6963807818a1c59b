/**
 * Runs of the SQL Client in progress, by the run id the client chose: what rawSqlCancel finds to
 * stop a statement in the database.
 */
import type { RawSession } from '../../../../sql/raw/open-session';

export interface ActiveRun {
  projectId: string;
  dbAlias: string;
  /** Who started it (historyOwner): a creator cancels only their own runs, owners any. */
  startedBy: string;
  /** Set by rawSqlCancel: the statement running is stopped and no further one starts. */
  cancelled: boolean;
  /** The session once open (opening may still be under way when a cancel arrives). */
  session: RawSession | null;
}

const runs = new Map<string, ActiveRun>();

/** Registers a run; false when the id is in use. */
export function startRun(runId: string, run: ActiveRun): boolean {
  if (runs.has(runId)) return false;
  runs.set(runId, run);
  return true;
}

export const findRun = (runId: string) => runs.get(runId);

export function endRun(runId: string): void {
  runs.delete(runId);
}
