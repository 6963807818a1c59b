/**
 * The API client's performance test runner against a real HTTP server on loopback: every request is
 * sent once, never more than `concurrency` at once; the answers are counted by status, the times
 * ordered; a stopped test says so; sends that get no answer are counted apart with their error.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { perfProblem, PERF_MAX_CONCURRENCY, PERF_MAX_REQUESTS, runPerfTest } from '../../web/src/features/api-client/perf-test';

let inFlight = 0;
let most = 0;
let served = 0;
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch() {
    const n = ++served;
    inFlight++;
    most = Math.max(most, inFlight);
    await Bun.sleep(2);
    inFlight--;
    // Every tenth request is refused, as a rate limit would.
    return n % 10 === 0 ? new Response('busy', { status: 503 }) : Response.json({ ok: true });
  },
});
afterAll(() => server.stop(true));
const send = async () => ({ status: (await fetch(`http://127.0.0.1:${server.port}/`)).status });

describe('performance test runner', () => {
  test('sends each request once, at most `concurrency` at once, and counts the answers by status', async () => {
    served = 0;
    most = 0;
    const progress: number[] = [];
    const r = await runPerfTest(send, 100, 5, { onProgress: (n) => progress.push(n) });
    expect(served).toBe(100);
    expect(most).toBe(5);
    expect(r.requests).toBe(100);
    expect(r.answered).toBe(100);
    expect(r.failed).toBe(0);
    expect(r.statuses).toEqual({ '200': 90, '503': 10 });
    expect(r.stopped).toBeUndefined();
    expect(progress.at(-1)).toBe(100);
    expect(r.minMs).toBeGreaterThan(0);
    expect(r.minMs).toBeLessThanOrEqual(r.medianMs);
    expect(r.medianMs).toBeLessThanOrEqual(r.p95Ms);
    expect(r.p95Ms).toBeLessThanOrEqual(r.maxMs);
    expect(r.rate).toBeGreaterThan(0);
    expect(r.rate).toBeCloseTo((100 * 1000) / r.totalMs, -1);
  });

  test('a stopped test sends no more and says it was stopped', async () => {
    served = 0;
    const stop = new AbortController();
    const r = await runPerfTest(send, 500, 2, { signal: stop.signal, onProgress: (n) => n === 20 && stop.abort() });
    // The two requests in flight when it stopped still finish.
    expect(r.requests).toBeGreaterThanOrEqual(20);
    expect(r.requests).toBeLessThanOrEqual(22);
    expect(served).toBe(r.requests);
    expect(r.stopped).toBe(true);
  });

  test('sends that get no answer are counted apart, with the first error', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
    const port = closed.port;
    closed.stop(true);
    const r = await runPerfTest(async () => ({ status: (await fetch(`http://127.0.0.1:${port}/`)).status }), 6, 3);
    expect(r.failed).toBe(6);
    expect(r.answered).toBe(0);
    expect(r.statuses).toEqual({});
    expect(r.firstError).toBeString();
    expect(r.rate).toBe(0);
  });

  test('asks for whole numbers within the limits', () => {
    expect(perfProblem(100, 5)).toBeNull();
    expect(perfProblem(0, 5)).toBe('requests');
    expect(perfProblem(PERF_MAX_REQUESTS + 1, 5)).toBe('requests');
    expect(perfProblem(2.5, 5)).toBe('requests');
    expect(perfProblem(Number.NaN, 5)).toBe('requests');
    expect(perfProblem(10, 0)).toBe('concurrency');
    expect(perfProblem(10, PERF_MAX_CONCURRENCY + 1)).toBe('concurrency');
  });
});
