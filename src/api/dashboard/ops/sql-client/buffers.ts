/**
 * Rows of SQL Client results kept on the server for a while, so a run answers only the first rows
 * and the client reads the rest page by page (rawSqlRows) while the grid already shows them.
 */
import { z } from 'zod';
import type { DashboardOp } from '../../op';
import { parseArgs } from '../../op';
import { notFound } from '../../../../lib/errors';
import type { RawStream } from '../../../../sql/raw/open-session';
import { ownerKey } from '../../../../lib/actor';

/** Rows a run's answer carries per statement; the rest come through rawSqlRows. */
export const FIRST_PAGE = 500;
/** Largest page rawSqlRows answers. */
const PAGE_MAX = 25_000;
/** Results kept at once (the oldest go first), and how long after their last read. */
const KEPT_MAX = 30;
const KEEP_MS = 10 * 60_000;

interface Kept {
  projectId: string;
  dbAlias: string;
  owner: string;
  stream: RawStream;
  timer?: ReturnType<typeof setTimeout>;
}

const kept = new Map<string, Kept>();

function touch(id: string, k: Kept): void {
  clearTimeout(k.timer);
  k.timer = setTimeout(() => kept.delete(id), KEEP_MS);
  k.timer.unref?.();
}

/** Keeps a result whose rows go beyond the first page (or are still being read); answers its id. */
export function keepResult(id: string, k: Kept): string {
  kept.set(id, k);
  touch(id, k);
  while (kept.size > KEPT_MAX) {
    const oldest = kept.keys().next().value!;
    clearTimeout(kept.get(oldest)!.timer);
    kept.delete(oldest);
  }
  return id;
}

const Args = z.object({
  resultId: z.string().min(1).max(100),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(PAGE_MAX),
});

/**
 * rawSqlRows `{ resultId, offset, limit }`: rows of a kept result from `offset`, waiting a little
 * for rows still being read; `done` once every row is read, `error` when the reading failed
 * (cancelled, timed out) after the first rows.
 */
export const rawSqlRows: DashboardOp = {
  name: 'rawSqlRows',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(Args, call.args);
    const k = kept.get(a.resultId);
    const owner = ownerKey(call.actor);
    if (!k || k.projectId !== call.projectId || k.dbAlias !== call.dbAlias || k.owner !== owner) throw notFound('This result is no longer kept: run the statement again');
    touch(a.resultId, k);
    await k.stream.waitFor(a.offset + a.limit, 5_000);
    const s = k.stream;
    const error = s.error ? { msg: s.error.message, kind: s.error.kind } : undefined;
    return { rows: s.rows.slice(a.offset, a.offset + a.limit), loaded: s.rows.length, rowCount: s.rowCount, done: s.finished, truncated: s.truncated, error };
  },
};
