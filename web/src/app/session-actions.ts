/**
 * Session commands shared by screens: load project info and user, sign in with a token, sign out,
 * the periodic check that the signed-in user still exists, and following the other tabs' session.
 */
import { authApi } from '../api/auth';
import { LIMITS } from '../lib/limits';
import { nextPollStep, pollOutcomeOfError, type PollOutcome } from '../lib/session-poll-state';
import { signal } from '../stores/signals';
import { clearSession, followOtherTabs, masterKey, projectInfo, setMasterKey, setToken, token, user, type User } from '../stores/session';

/**
 * Loads /auth/type, then the current user when a token is held. A user read that gets no verdict (no
 * answer, 502 or 503: the server or its metadata store unreachable) while a session is held fails the
 * load, whose page offers to try again, rather than showing the sign-in page to someone still signed in.
 */
export async function loadSession(): Promise<void> {
  projectInfo.value = await authApi.type();
  try {
    const me = await authApi.me();
    user.value = 'roles' in me ? (me as User) : null;
  } catch (e) {
    if ((token.value || masterKey.value) && pollOutcomeOfError(e) === 'unreachable') throw e;
    user.value = null;
  }
}

/**
 * Where to go after signing in: the page that sent the visitor to sign-in (its location state
 * `from`), else the projects list.
 */
export function returnTo(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('/user/authentication') ? from : '/projects';
}

/** Keeps the token of a successful sign-in or sign-up and reads the user. */
export async function acceptToken(token: string): Promise<void> {
  setToken(token);
  const me = await authApi.me();
  user.value = 'roles' in me ? (me as User) : null;
  projectInfo.value = await authApi.type();
}

/** Keeps a verified master key (sent as `xc-master-key` from now on) and reads the user it stands for. */
export async function acceptMasterKey(secret: string): Promise<void> {
  setToken(null);
  setMasterKey(secret);
  const me = await authApi.me();
  user.value = 'roles' in me ? (me as User) : null;
}

/**
 * Signs out on the server (drops the refresh cookie), clears user, token and master key, and
 * reloads the auth type (spec 4: sign-out clears it too).
 */
export async function signOut(): Promise<void> {
  // The call leaves with the session's headers (they are read as it is sent); the session is then forgotten here at
  // once, not once the server has answered (a slow answer left the key or token stored meanwhile).
  const told = authApi.signout().catch(() => {});
  clearSession();
  await told;
  projectInfo.value = await authApi.type().catch(() => projectInfo.value);
}

/**
 * Every `LIMITS.sessionPollMs`, while a user is signed in, asks GET /user/me; the rule of
 * `nextPollStep` decides when the user is cleared (the route guards then go to sign-in).
 * note: an answer that says nothing of the session (no answer at all, 502 or 503: the server or its metadata
 * store unreachable) keeps the user and the count, so neither a restart nor an outage signs anyone out.
 * Answers the function that stops the polling.
 */
export function startSessionPolling(intervalMs: number = LIMITS.sessionPollMs): () => void {
  let failures = 0;
  let running = false;
  const poll = async () => {
    if (!user.value || running) return;
    running = true;
    const asked = { token: token.value, masterKey: masterKey.value };
    let outcome: PollOutcome;
    try {
      const me = await authApi.me();
      outcome = 'roles' in me ? 'user' : 'empty';
    } catch (e) {
      // No verdict (no answer, 502, 503) keeps the user; a 504 is counted; any other failure clears the user.
      outcome = pollOutcomeOfError(e);
    } finally {
      running = false;
    }
    // Signed out or in as someone else meanwhile: the answer was about the session before.
    if (token.value !== asked.token || masterKey.value !== asked.masterKey) return;
    const step = nextPollStep(failures, outcome, LIMITS.sessionPollMaxFailures);
    failures = step.failures;
    if (step.clearUser) user.value = null;
  };
  const timer = setInterval(() => void poll(), intervalMs);
  return () => clearInterval(timer);
}

/** Counts the sessions this tab took from a sign-in in another tab (the sign-in page then goes back). */
export const signedInElsewhere = signal(0);

/**
 * Follows the session of the other tabs of this browser at once, not at this tab's next call: signed
 * out there, the user is cleared here too (the route guards go to sign-in); signed in there (or the
 * token refreshed), this tab takes that session and reads its user again. Answers the function that
 * stops following.
 */
export function followSessionOfOtherTabs(): () => void {
  return followOtherTabs((signedIn) => {
    if (!signedIn) {
      user.value = null;
      void authApi.type().then(
        (info) => (projectInfo.value = info),
        () => {},
      );
      return;
    }
    const asked = { token: token.value, masterKey: masterKey.value };
    void authApi.me().then(
      (me) => {
        // A later change of the other tabs decides instead.
        if (token.value !== asked.token || masterKey.value !== asked.masterKey) return;
        user.value = 'roles' in me ? (me as User) : null;
        signedInElsewhere.value++;
      },
      () => {},
    );
  });
}
