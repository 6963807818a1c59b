/**
 * Hands on only the answer to the latest ask of one list or panel: each ask supersedes the ones
 * before it, and `drop` supersedes them all (the list is gone, or shows something else now), so an
 * earlier ask answered late never replaces a later one.
 */
export interface Latest {
  /** Applies `onAnswer` (or `onError`) only if no later ask began meanwhile; settles once handled. */
  <T>(ask: Promise<T>, onAnswer: (value: T) => void, onError?: (e: Error) => void): Promise<void>;
  /** Begins an ask by hand: answers whether it is still the latest. */
  begin(): () => boolean;
  drop(): void;
}

export function latestOnly(): Latest {
  let n = 0;
  const begin = () => {
    const mine = ++n;
    return () => mine === n;
  };
  const latest = (<T>(ask: Promise<T>, onAnswer: (value: T) => void, onError?: (e: Error) => void) => {
    const current = begin();
    return ask.then(
      (value) => void (current() && onAnswer(value)),
      (e) => void (current() && onError?.(e as Error)),
    );
  }) as Latest;
  latest.begin = begin;
  latest.drop = () => void n++;
  return latest;
}
