/** The session poll rule of spec section 4: when a poll of GET /user/me clears the signed-in user. */
import { expect, test } from 'bun:test';
import { nextPollStep } from '../../web/src/lib/session-poll-state';

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
