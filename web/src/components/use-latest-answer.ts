/**
 * Asks `load` once its inputs have held still for `ms` (a search being typed), and hands on only the
 * answer to the latest ask: an earlier search answered late never replaces a later one.
 * `useLatest` does the same for asks made at once (in effects and handlers): see lib/latest.ts.
 */
import { useEffect, useState, type DependencyList } from 'react';
import { latestOnly, type Latest } from '../lib/latest';

export function useLatestAnswer<T>(load: () => Promise<T>, onAnswer: (value: T) => void, onError: (e: Error) => void, deps: DependencyList, ms = 200): void {
  useEffect(() => {
    let latest = true;
    const timer = setTimeout(() => {
      load().then(
        (value) => latest && onAnswer(value),
        (e) => latest && onError(e as Error),
      );
    }, ms);
    return () => {
      latest = false;
      clearTimeout(timer);
    };
  }, deps);
}

/** One list's or panel's asks: only the latest one's answer is applied, and none once unmounted. */
export function useLatest(): Latest {
  const [latest] = useState(latestOnly);
  useEffect(() => () => latest.drop(), [latest]);
  return latest;
}
