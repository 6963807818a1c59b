/**
 * Sign-out as an event: the auth routes announce it, features that hold something for the
 * session (terminals) listen. Listeners are kept per app context, so two apps never cross.
 */
type Listener = (userId: string) => void;

const listeners = new WeakMap<object, Set<Listener>>();

/** Calls `listener` with the user id each time a user of this app signs out. */
export function onSignOut(ctx: object, listener: Listener): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Announces that a user of this app signed out. */
export function signedOut(ctx: object, userId: string): void {
  for (const l of listeners.get(ctx) ?? []) {
    try {
      l(userId);
    } catch {}
  }
}
