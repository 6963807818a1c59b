/**
 * The rule of the session poll (spec section 4), apart from timers and HTTP so it can be tested:
 * a user answer keeps the session and resets the failure count, an empty answer clears the user,
 * a 504 counts a failure and clears the user only at the maximum, any other error clears the user, except
 * a failure that says nothing of the session (`unreachable`: no answer at all, or 502 / 503 while the
 * server or its metadata store cannot be reached), which keeps the user and the count as they were.
 */

/** What one poll of GET /user/me came back with. */
export type PollOutcome = 'user' | 'empty' | 'timeout' | 'unreachable' | 'error';

/** Statuses that say nothing of the session: no answer at all (0), a bad gateway, the server or its store unavailable. */
const NO_VERDICT = new Set([0, 502, 503]);

/** The outcome of a poll that failed with `e` (an error with the HTTP status of the answer, 0 when none came). */
export function pollOutcomeOfError(e: unknown): PollOutcome {
  const status = (e as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return 'timeout';
  if (NO_VERDICT.has(status)) return 'unreachable';
  return status === 504 ? 'timeout' : 'error';
}

/** The failure count to keep and whether the user must be cleared. */
export interface PollStep {
  failures: number;
  clearUser: boolean;
}

/** Applies one poll outcome to the running failure count. */
export function nextPollStep(failures: number, outcome: PollOutcome, maxFailures: number): PollStep {
  switch (outcome) {
    case 'user':
      return { failures: 0, clearUser: false };
    case 'empty':
      return { failures: 0, clearUser: true };
    case 'unreachable':
      return { failures, clearUser: false };
    case 'timeout':
      return failures + 1 >= maxFailures ? { failures: 0, clearUser: true } : { failures: failures + 1, clearUser: false };
    case 'error':
      return { failures: 0, clearUser: true };
  }
}
