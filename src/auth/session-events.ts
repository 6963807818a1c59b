/**
 * The end of a user's sessions as an event: signing out, a disabled account, a change of global
 * roles, a new password. The routes that end them announce it; features that hold something for
 * the session (terminals) listen and end it at once. Listeners are kept per app context, so two
 * apps never cross.
 */
type Listener = (userId: string, reason: string) => void;

const listeners = new WeakMap<object, Set<Listener>>();

/** Calls `listener` with the user id and the reason each time the sessions of a user of this app end. */
export function onSessionsEnded(ctx: object, listener: Listener): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Announces that the sessions of a user of this app ended (`reason` as the terminal tells it). */
export function sessionsEnded(ctx: object, userId: string, reason: string): void {
  for (const l of listeners.get(ctx) ?? []) {
    try {
      l(userId, reason);
    } catch {}
  }
}
