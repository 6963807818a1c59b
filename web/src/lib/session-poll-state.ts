/**
 * The rule of the session poll (spec section 4), apart from timers and HTTP so it can be tested:
 * a user answer keeps the session and resets the failure count, an empty answer clears the user,
 * a 504 counts a failure and clears the user only at the maximum, any other error clears the user.
 */

/** What one poll of GET /user/me came back with. */
export type PollOutcome = 'user' | 'empty' | 'timeout' | 'error';

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
    case 'timeout':
      return failures + 1 >= maxFailures ? { failures: 0, clearUser: true } : { failures: failures + 1, clearUser: false };
    case 'error':
      return { failures: 0, clearUser: true };
  }
}
