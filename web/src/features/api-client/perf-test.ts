/**
 * The API client's performance test: one request sent `requests` times, at most `concurrency` at
 * once, timed one by one; the result is the rate, the spread of the times (min, median, p95, max)
 * and the answers by status. Pure (the sending is handed in), so it is unit tested.
 */

/** Most requests in one test, and most in flight at once (the browser keeps six per host anyway). */
export const PERF_MAX_REQUESTS = 1000;
export const PERF_MAX_CONCURRENCY = 20;

/** One send: its status, or the error of a send that got no answer. */
export type PerfSend = () => Promise<{ status: number } | { error: string }>;

/** What a test measured (kept in the history with its request). */
export interface PerfResult {
  requests: number;
  concurrency: number;
  /** Requests that came back (with any status), and those that got no answer. */
  answered: number;
  failed: number;
  /** Wall time of the whole test, ms. */
  totalMs: number;
  /** Answers per second over the whole test. */
  rate: number;
  minMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** Answers by HTTP status, e.g. { '200': 98, '429': 2 }. */
  statuses: Record<string, number>;
  /** The test was stopped before all its requests were sent. */
  stopped?: boolean;
  /** The first error of a send that got no answer. */
  firstError?: string;
}

/** The problem with the numbers asked for, or null (the messages are the caller's: it gets a key). */
export function perfProblem(requests: number, concurrency: number): 'requests' | 'concurrency' | null {
  if (!Number.isInteger(requests) || requests < 1 || requests > PERF_MAX_REQUESTS) return 'requests';
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > PERF_MAX_CONCURRENCY) return 'concurrency';
  return null;
}

/** The value at fraction q (0..1) of sorted times, nearest rank. */
const rank = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Runs the test: `concurrency` workers take the next request until `requests` were sent or `signal`
 * stops them; `onProgress` hears the count of finished requests. Never throws for a failed send.
 */
export async function runPerfTest(send: PerfSend, requests: number, concurrency: number, opts: { signal?: AbortSignal; onProgress?: (done: number) => void; now?: () => number } = {}): Promise<PerfResult> {
  const now = opts.now ?? (() => performance.now());
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  let firstError: string | undefined;
  let next = 0;
  let done = 0;
  const started = now();
  const worker = async () => {
    while (next < requests && !opts.signal?.aborted) {
      next++;
      const t0 = now();
      let answer: Awaited<ReturnType<PerfSend>>;
      try {
        answer = await send();
      } catch (e) {
        answer = { error: (e as Error).message };
      }
      if ('status' in answer) {
        times.push(now() - t0);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      } else {
        failed++;
        firstError ??= answer.error;
      }
      opts.onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, worker));
  const totalMs = now() - started;
  const sorted = times.slice().sort((a, b) => a - b);
  return {
    requests: done,
    concurrency,
    answered: times.length,
    failed,
    totalMs: round(totalMs),
    rate: totalMs > 0 ? round((times.length * 1000) / totalMs) : 0,
    minMs: round(sorted[0] ?? 0),
    medianMs: round(rank(sorted, 0.5)),
    p95Ms: round(rank(sorted, 0.95)),
    maxMs: round(sorted.at(-1) ?? 0),
    statuses,
    ...(done < requests ? { stopped: true } : {}),
    ...(firstError ? { firstError } : {}),
  };
}
