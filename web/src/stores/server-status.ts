/**
 * Whether the server answers for the session's data right now: false after a call got no answer at all,
 * or a 503 saying the server's metadata store is unreachable, or the realtime socket was ended with 4503
 * ("try again"); true again at the next answer that is not such a failure. The offline banner tells the
 * user meanwhile; nobody is signed out for it.
 */
import { signal } from './signals';

/** False while the server (or its metadata store) cannot be reached. */
export const serverReachable = signal(true);

/** Notes how the latest call or socket went: `false` for no answer / the store unreachable, `true` for any other answer. */
export function noteServerReached(reached: boolean): void {
  if (serverReachable.value !== reached) serverReachable.value = reached;
}
