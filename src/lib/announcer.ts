/**
 * A synchronous announcement within one process: listeners are called in turn and a listener's error
 * never reaches the one who announces (it would fail a change already made).
 */
export function announcer<E>() {
  const listeners = new Set<(e: E) => void>();
  return {
    /** Listens; answers the function that stops listening. */
    listen(listener: (e: E) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    announce(e: E): void {
      for (const l of [...listeners]) {
        try {
          l(e);
        } catch {}
      }
    },
  };
}
