/**
 * Release checks: a JSON feed (NC_UPDATE_FEED) names the latest release; it is read in the background
 * after start and every few hours, never blocking start-up. Unset or unreachable, Tablo simply says so.
 * Feed: `{ "version": "1.4.0", "url": "https://…/tablo-linux-x64", "sha256": "…", "notes": "…" }`.
 */
import { z } from 'zod';
import type { Logger } from '../lib/log';

const Release = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/, 'version must look like 1.2.3'),
  url: z.url().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'sha256 must be 64 hex digits').optional(),
  notes: z.string().max(10_000).optional(),
});
export type Release = z.infer<typeof Release>;

export interface UpdateStatus {
  version: string;
  /** True when a feed is configured. */
  feed: boolean;
  latest: Release | null;
  /** The latest release is newer than this server. */
  newer: boolean;
  checkedAt: string | null;
  /** Why the last check found nothing. */
  error?: string;
}

/** 1.10.0 > 1.9.3; a pre-release (1.2.0-rc.1) is older than its release. */
export function isNewer(candidate: string, current: string): boolean {
  const parse = (v: string) => {
    const [core, pre] = v.split(/[-+]/, 2) as [string, string | undefined];
    return { parts: core.split('.').map((n) => Number(n) || 0), pre: v.includes('-') ? (pre ?? '') : null };
  };
  const a = parse(candidate);
  const b = parse(current);
  for (let i = 0; i < 3; i++) if ((a.parts[i] ?? 0) !== (b.parts[i] ?? 0)) return (a.parts[i] ?? 0) > (b.parts[i] ?? 0);
  if (a.pre === null || b.pre === null) return a.pre === null && b.pre !== null;
  return a.pre > b.pre;
}

export interface UpdateCheckerOptions {
  feedUrl?: string;
  current: string;
  log: Logger;
  intervalMs?: number;
  timeoutMs?: number;
}

export function updateChecker(opts: UpdateCheckerOptions) {
  let status: UpdateStatus = { version: opts.current, feed: !!opts.feedUrl, latest: null, newer: false, checkedAt: null };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<UpdateStatus> | null = null;
  const listeners = new Set<(s: UpdateStatus) => void>();

  const read = async (): Promise<UpdateStatus> => {
    const checkedAt = new Date().toISOString();
    try {
      const res = await fetch(opts.feedUrl!, { signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`The update feed answered ${res.status}`);
      const parsed = Release.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw new Error(`The update feed is not a release: ${parsed.error.issues[0]!.message}`);
      return { ...status, latest: parsed.data, newer: isNewer(parsed.data.version, opts.current), checkedAt, error: undefined };
    } catch (e) {
      const msg = (e as Error).name === 'TimeoutError' ? 'The update feed did not answer in time' : (e as Error).message.startsWith('The update feed') ? (e as Error).message : 'The update feed could not be reached';
      opts.log.warn?.(`update check: ${msg}`);
      return { ...status, latest: null, newer: false, checkedAt, error: msg };
    }
  };

  /** Reads the feed now (one read at a time); without a feed, the status as it is. */
  const check = (): Promise<UpdateStatus> => {
    if (!opts.feedUrl) return Promise.resolve(status);
    running ??= read().then((s) => {
      status = s;
      running = null;
      for (const fn of listeners) fn(s);
      return s;
    });
    return running;
  };

  const schedule = (ms: number) => {
    timer = setTimeout(() => void check().finally(() => schedule(opts.intervalMs ?? 6 * 3_600_000)), ms);
    (timer as { unref?: () => void }).unref?.();
  };
  if (opts.feedUrl) schedule(0);

  return {
    status: () => status,
    check,
    /** Calls fn after every read of the feed (the auto-update installs from here); answers how to stop. */
    onChecked: (fn: (s: UpdateStatus) => void) => (listeners.add(fn), () => void listeners.delete(fn)),
    stop: () => clearTimeout(timer),
  };
}

export type UpdateChecker = ReturnType<typeof updateChecker>;
