/** The session poll rule of spec section 4: when a poll of GET /user/me clears the signed-in user. */
import { expect, test } from 'bun:test';
import { nextPollStep, pollOutcomeOfError } from '../../web/src/lib/session-poll-state';

test('a user answer keeps the session and resets the failure count', () => {
  expect(nextPollStep(2, 'user', 3)).toEqual({ failures: 0, clearUser: false });
});

test('an empty answer clears the user and resets the count', () => {
  expect(nextPollStep(1, 'empty', 3)).toEqual({ failures: 0, clearUser: true });
});

test('504 answers are counted and clear the user only at the maximum', () => {
  let failures = 0;
  const cleared: boolean[] = [];
  for (let i = 0; i < 4; i++) {
    const step = nextPollStep(failures, 'timeout', 3);
    failures = step.failures;
    cleared.push(step.clearUser);
  }
  expect(cleared).toEqual([false, false, true, false]);
  expect(failures).toBe(1);
});

test('any other error clears the user at once', () => {
  expect(nextPollStep(0, 'error', 3)).toEqual({ failures: 0, clearUser: true });
});

test('no answer, 502 and 503 (the server or its metadata store unreachable) never clear the user, however long they last', () => {
  expect([0, 502, 503].map((status) => pollOutcomeOfError({ status }))).toEqual(['unreachable', 'unreachable', 'unreachable']);
  let failures = 1;
  for (let i = 0; i < 10; i++) {
    const step = nextPollStep(failures, 'unreachable', 3);
    expect(step.clearUser).toBe(false);
    failures = step.failures;
  }
  expect(failures).toBe(1);
});

test('a 504 is counted and any other failing status clears the user', () => {
  expect(pollOutcomeOfError({ status: 504 })).toBe('timeout');
  expect(pollOutcomeOfError({ status: 500 })).toBe('error');
  expect(pollOutcomeOfError({ status: 404 })).toBe('error');
});
