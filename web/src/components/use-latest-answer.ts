/**
 * Asks `load` once its inputs have held still for `ms` (a search being typed), and hands on only the
 * answer to the latest ask: an earlier search answered late never replaces a later one.
 */
import { useEffect, type DependencyList } from 'react';

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
