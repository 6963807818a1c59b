/**
 * An import running in the background: reads the stored file as a stream, turns each row into
 * column values, and inserts batches through the data core (`insertMany`: rights, value checks,
 * audit), each batch in a transaction, or the whole import in one transaction in "all or nothing"
 * mode. Rows that do not fit are reported (line, column, value, reason) and skipped, or stop the
 * import. Progress (rows, bytes, an estimate of the total and of the time left) is polled; a
 * cancel is seen between rows. In "all or nothing" mode a stop, a cancel or a failure leaves
 * nothing: the transaction rolls back and a table the import created is dropped again.
 * Instances sharing a data directory and a metadata store serve one import: its progress is kept in
 * `<id>.job.json` beside the uploads (written at each batch), and a cancel asked of another instance
 * reaches the running one through the store's notifier. A job left 'running' there by an instance
 * that ended abruptly (killed, power loss) ends as failed at the next start or status call, once no
 * live instance runs it (import-liveness.ts).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomSlug } from '../../lib/ids';
import { isAppError } from '../../lib/errors';
import type { DataContext } from '../../data/data-context';
import { insertMany } from '../../data/records-service';
import { flushWrites, type PendingWrites } from '../../data/write-events';
import type { ColumnModel, TableModel } from '../../schema/model';
import type { Logger } from '../../lib/log';
import { openRows } from './row-sources';
import { cellValue, decimalCommaFor } from './column-types';
import { columnLetters } from './xlsx-writer';
import type { MetaStore } from '../../meta/store';
import { ALL, invalidation } from '../../meta/invalidation';
import { dropLeftDrafts, dropUpload, markBusy, readShared, uploadsDir, writeShared, type StoredUpload } from './uploads';
import { holdRunLease, takeOverLeftJob } from './import-liveness';

/** A row that did not fit: `row` is its line in the sheet (the header is line 1). */
export interface ImportProblem {
  row: number;
  column: string | null;
  value: unknown;
  reason: string;
}

export type ImportStatus = 'running' | 'done' | 'stopped' | 'cancelled' | 'failed';

export interface ImportJob {
  id: string;
  projectId: string;
  dbAlias: string;
  owner: string;
  status: ImportStatus;
  table: { tn: string; _tn: string; created: boolean };
  rowsRead: number;
  rowsImported: number;
  rowsSkipped: number;
  problems: ImportProblem[];
  problemCount: number;
  bytesRead: number;
  totalBytes: number;
  startedAt: number;
  finishedAt?: number;
  message?: string;
  /** Nothing of the import was kept (all or nothing after a stop, a cancel or a failure). */
  rolledBack: boolean;
  /** The import runs in one transaction (nothing is kept unless it ends done). */
  allOrNothing?: boolean;
  /** The upload it reads (its file is dropped when the job ends, here or as left behind). */
  uploadId?: string;
  cancel: boolean;
  /** Set when the import ends early on purpose. */
  ending?: 'cancelled' | 'stopped';
  /** Set when Tablo is stopping: the import ends (stopped) at its next row. */
  shutdown?: boolean;
}

/** How the rows of a file go into the table. */
export interface ImportPlan {
  upload: StoredUpload;
  sheet?: string;
  delimiter?: string;
  /** The column each file column goes to (by file column index); others are skipped. */
  mapping: Map<number, ColumnModel>;
  onError: 'skip' | 'stop';
  allOrNothing: boolean;
  batchSize: number;
  /** Drops the table the import created (all or nothing). */
  undoCreate?: () => Promise<void>;
}

/** Problems kept per job (the count goes on). */
const MAX_PROBLEMS = 1000;
const KEEP_FINISHED_MS = 60 * 60 * 1000;

const jobs = new Map<string, ImportJob>();
/** The imports running in this process, until they end. */
const runs = new Map<string, Promise<void>>();

/** Where the instances of one data directory find an import's progress. */
export interface SharedJobs {
  dataDir: string;
  meta: MetaStore;
}

const JOB_ID = /^job_[a-z0-9]+$/;
const UPLOAD_ID = /^imp_[a-z0-9]+$/;
const CANCEL_TOPIC = 'import-cancel';
const jobFile = (dataDir: string, id: string) => join(uploadsDir(dataDir), `${id}.job.json`);
const files = new Map<string, string>();

/** Writes the job's state for the other instances (a failed write only leaves them an older state). */
function share(job: ImportJob): void {
  const path = files.get(job.id);
  if (!path) return;
  try {
    const { cancel: _c, ending: _e, shutdown: _s, ...state } = job;
    writeShared(path, state);
  } catch {}
}

/** Cancels asked of other instances reach the jobs running here. */
const listening = new WeakSet<object>();
function listenForCancels(meta: MetaStore): void {
  const root = meta.root ?? meta;
  if (listening.has(root)) return;
  listening.add(root);
  invalidation(root).subscribe(CANCEL_TOPIC, (id) => {
    const j = id === ALL ? undefined : jobs.get(id);
    if (j) cancelJob(j);
  });
}

/** Ends the reading: the job's `ending` says why (drivers may wrap what a transaction throws). */
class Ending extends Error {}
const end = (job: ImportJob, why: 'cancelled' | 'stopped') => {
  job.ending = why;
  return new Ending(why);
};

/**
 * The job of this caller in this project database (running here or on another instance), or
 * undefined. A job left running by an instance that no longer runs it is ended first (see endLeftJob).
 */
export async function jobOf(shared: SharedJobs, id: string, projectId: string, dbAlias: string, owner: string): Promise<ImportJob | undefined> {
  let j = jobs.get(id) ?? (JOB_ID.test(id) ? readShared<ImportJob>(jobFile(shared.dataDir, id)) : undefined);
  if (!j || j.projectId !== projectId || j.dbAlias !== dbAlias || j.owner !== owner) return undefined;
  if (j.status === 'running' && !runs.has(j.id)) j = (await endLeftJob(shared, j.id)) ?? j;
  return j;
}

/** Why a job left running by an instance that ended abruptly (killed, power loss) ended. */
export function leftJobMessage(j: Pick<ImportJob, 'allOrNothing' | 'table'>): string {
  const why = 'Stopped: the server stopped while importing (it was ended abruptly)';
  if (!j.allOrNothing) return `${why}; the rows imported until then were kept, the rest were not: upload the rest again`;
  // Each sentence whole, so that the web app's catalogue of server messages finds and translates it.
  if (j.table.created) return `${why}; nothing was imported, the table ${j.table._tn} it created is left empty: upload the file again`;
  return `${why}; nothing was imported: upload the file again`;
}

/**
 * Ends, as failed and saying so, the job `id` when its file says 'running' and no live instance
 * runs it (see import-liveness.ts); answers its new state, or undefined when it was left alone.
 */
async function endLeftJob(shared: SharedJobs, id: string): Promise<ImportJob | undefined> {
  const path = jobFile(shared.dataDir, id);
  if (runs.has(id) || readShared<ImportJob>(path)?.status !== 'running') return undefined;
  if (!(await takeOverLeftJob(shared.meta, id))) return undefined;
  // Read again: the job may have ended in between on the instance that ran it.
  const j = readShared<ImportJob>(path);
  if (!j || j.status !== 'running' || runs.has(id)) return undefined;
  const ended: ImportJob = { ...j, status: 'failed', finishedAt: Date.now(), message: leftJobMessage(j) };
  // All or nothing: the database rolled the import's transaction back when its connection died.
  if (j.allOrNothing) Object.assign(ended, { rolledBack: true, rowsImported: 0 });
  writeShared(path, ended);
  // Its upload is of no more use (it is not imported twice by mistake, and its room is freed).
  if (j.uploadId && UPLOAD_ID.test(j.uploadId)) dropUpload({ id: j.uploadId, path: join(uploadsDir(shared.dataDir), j.uploadId) });
  return ended;
}

/**
 * On start: the jobs of the data directory left running by an instance that ended abruptly end as
 * failed, with the rows imported so far (those another live instance runs are left alone).
 */
export async function endLeftImports(shared: SharedJobs, log: Logger): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(uploadsDir(shared.dataDir));
  } catch {
    return;
  }
  dropLeftDrafts(uploadsDir(shared.dataDir), names);
  for (const name of names) {
    const id = name.endsWith('.job.json') ? name.slice(0, -'.job.json'.length) : '';
    if (!JOB_ID.test(id)) continue;
    try {
      if (await endLeftJob(shared, id)) log.warn(`import ${id} was left running by a server that stopped abruptly: marked as failed`);
    } catch (e) {
      log.error(`import ${id}: could not check whether it was left running`, e);
    }
  }
}

/** What a caller sees of a job: counts, the estimate and time left, the first problems. */
export function jobView(j: ImportJob) {
  const elapsedMs = (j.finishedAt ?? Date.now()) - j.startedAt;
  const part = j.totalBytes > 0 ? Math.min(1, j.bytesRead / j.totalBytes) : 0;
  const estimatedRows = j.status === 'running' ? (part > 0 ? Math.max(j.rowsRead, Math.round(j.rowsRead / part)) : null) : j.rowsRead;
  const etaMs = j.status === 'running' && part > 0.01 ? Math.round((elapsedMs * (1 - part)) / part) : null;
  const { cancel: _c, owner: _o, ending: _e, shutdown: _s, uploadId: _u, ...rest } = j;
  return { ...rest, elapsedMs, estimatedRows, etaMs, progress: j.status === 'running' ? part : 1 };
}

function sweep(): void {
  const now = Date.now();
  for (const [id, j] of jobs) {
    if (!j.finishedAt || now - j.finishedAt <= KEEP_FINISHED_MS) continue;
    jobs.delete(id);
    const path = files.get(id);
    files.delete(id);
    if (path) rmSync(path, { force: true });
  }
}

/** Starts the import of `plan` into `t` with the caller's data context; answers the job at once. */
export async function startImport(dc: DataContext, t: TableModel, plan: ImportPlan, who: { owner: string; created: boolean }, shared: SharedJobs, log: Logger): Promise<ImportJob> {
  sweep();
  listenForCancels(shared.meta);
  const id = `job_${randomSlug(16)}`;
  // Held before the job file says 'running': another instance never takes the job for left behind.
  const stopLease = await holdRunLease(shared.meta, id, (e) => log.warn(`import ${id}: its lease could not be renewed: ${(e as Error).message}`));
  const job: ImportJob = {
    id,
    projectId: plan.upload.projectId,
    dbAlias: plan.upload.dbAlias,
    owner: who.owner,
    status: 'running',
    table: { tn: t.tn, _tn: t._tn, created: who.created },
    rowsRead: 0,
    rowsImported: 0,
    rowsSkipped: 0,
    problems: [],
    problemCount: 0,
    bytesRead: 0,
    totalBytes: plan.upload.size,
    startedAt: Date.now(),
    rolledBack: false,
    allOrNothing: plan.allOrNothing,
    uploadId: plan.upload.id,
    cancel: false,
  };
  jobs.set(job.id, job);
  files.set(job.id, jobFile(shared.dataDir, job.id));
  share(job);
  markBusy(plan.upload);
  runs.set(
    job.id,
    run(dc, t, plan, job, log).finally(() => {
      stopLease();
      runs.delete(job.id);
    }),
  );
  return job;
}

async function run(dc: DataContext, t: TableModel, plan: ImportPlan, job: ImportJob, log: Logger): Promise<void> {
  // The status changes last: a caller who sees the end sees everything the import left.
  let status: ImportStatus = 'done';
  try {
    if (plan.allOrNothing) {
      // The rows are announced (open grids, webhooks) once the one transaction has committed, not before.
      const pending: PendingWrites = [];
      await dc.pdb.db.driver.transaction((exec) => readAndInsert({ ...dc, exec, pending }, t, plan, job));
      flushWrites(dc.events, pending);
    } else await readAndInsert(dc, t, plan, job);
  } catch (e) {
    status = job.shutdown ? 'stopped' : (job.ending ?? 'failed');
    if (status === 'failed') {
      job.message = isAppError(e) ? e.message : 'The import failed on the server; it has been logged';
      if (!isAppError(e)) log.error(`import ${job.id} failed`, e);
    }
    if (plan.allOrNothing) {
      job.rolledBack = true;
      job.rowsImported = 0;
      if (plan.undoCreate) {
        try {
          await plan.undoCreate();
        } catch (err) {
          job.rolledBack = false;
          job.message = `${job.message ? `${job.message}; ` : ''}the created table could not be dropped: ${(err as Error).message}`;
        }
      }
    }
    if (job.shutdown) {
      const why = job.rolledBack
        ? 'Tablo was stopped during the import: nothing was imported; upload the file again'
        : `Tablo was stopped during the import: ${job.rowsImported} rows were imported, the rest were not; upload the rest again`;
      job.message = job.message ? `${why}; ${job.message}` : why;
    }
  } finally {
    dropUpload(plan.upload);
    job.finishedAt = Date.now();
    job.status = status;
    share(job);
  }
}

async function readAndInsert(dc: DataContext, t: TableModel, plan: ImportPlan, job: ImportJob): Promise<void> {
  const kind = plan.delimiter ? { ...plan.upload.kind, delimiter: plan.delimiter } : plan.upload.kind;
  const src = openRows(plan.upload.path, kind, plan.sheet ?? plan.upload.sheets?.[0]);
  const decimalComma = kind.format === 'csv' && decimalCommaFor(kind.delimiter);
  const mapped = [...plan.mapping.entries()];
  let batch: Record<string, unknown>[] = [];
  let lines: number[] = [];
  let header = true;
  let width = 0;
  let line = 1;
  const flush = async () => {
    if (job.cancel) throw end(job, 'cancelled');
    const { inserted, problems } = await insertMany(dc, t, batch, { stopAtProblem: plan.onError === 'stop' });
    job.rowsImported += inserted;
    for (const p of problems) misfit(job, { row: lines[p.index]!, column: p.column, value: p.value, reason: p.reason });
    job.bytesRead = src.bytesRead();
    batch = [];
    lines = [];
    share(job);
    if (problems.length && plan.onError === 'stop') {
      job.message = `Stopped at line ${job.problems[job.problems.length - 1]!.row}: ${problems[0]!.reason}`;
      throw end(job, 'stopped');
    }
    // Let polls and other requests in between batches.
    await new Promise((r) => setImmediate(r));
  };
  try {
    const reader = src.rows[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<string[]>;
      try {
        next = await reader.next();
      } catch (e) {
        // The file cannot be read on from here (a quote left open, a damaged workbook): the rows read
        // before go in, as those of finished batches, and the job fails saying where.
        if (batch.length && isAppError(e)) await flush();
        throw e;
      }
      if (next.done) break;
      const r = next.value;
      // A CSV's or a sheet's own row number counts the empty rows left out before this one.
      line = src.rowNumber ? src.rowNumber() : line + 1;
      if (header) {
        header = false;
        width = r.length;
        // Rows are named by their line in a CSV or a sheet (the header is line 1); in JSON by the
        // object's place (the first is 1: a JSON Lines file's line), the header being no line of it.
        line = plan.upload.kind.format === 'json' ? 0 : 1;
        continue;
      }
      if (job.cancel) throw end(job, 'cancelled');
      // A row of empty cells (",,,") is no row.
      if (r.every((x) => x.trim() === '')) continue;
      // More values than the header has columns (an unquoted comma in a value, say: 'Smith, John')
      // would put each value under the wrong column, or drop it: the row is a misfit, reported.
      // Empty cells past the end (a trailing delimiter) are no values.
      const extra = r.slice(width).filter((x) => x.trim() !== '');
      if (extra.length) {
        job.rowsRead++;
        if (batch.length) await flush();
        misfit(job, { row: line, column: null, value: r.slice(width).join(' | '), reason: `The row has ${width + extra.length} values where the header has ${width} columns (a value holding the delimiter must be quoted)` });
        share(job);
        if (plan.onError === 'stop') {
          job.message = `Stopped at line ${line}: the row has more values than the header has columns`;
          throw end(job, 'stopped');
        }
        continue;
      }
      // A workbook's cell holding an error (#DIV/0!, #N/A: a formula that failed) has no value to
      // import: its row is a misfit, named by the cell, rather than a row with the cell left empty.
      const errors = src.cellErrors?.();
      const failed = errors?.size ? mapped.find(([i]) => errors.has(i)) : undefined;
      if (failed) {
        const [i, c] = failed;
        const error = errors!.get(i)!;
        const cell = `${columnLetters(i)}${line}`;
        job.rowsRead++;
        if (batch.length) await flush();
        misfit(job, { row: line, column: c._cn, value: error, reason: `Cell ${cell} holds the error ${error} instead of a value` });
        share(job);
        if (plan.onError === 'stop') {
          job.message = `Stopped at line ${line}: cell ${cell} holds the error ${error}`;
          throw end(job, 'stopped');
        }
        continue;
      }
      const row: Record<string, unknown> = {};
      for (const [i, c] of mapped) row[c.cn] = cellValue(c, r[i] ?? '', decimalComma);
      batch.push(row);
      lines.push(line);
      job.rowsRead++;
      if (batch.length >= plan.batchSize) await flush();
    }
    if (batch.length) await flush();
    job.bytesRead = job.totalBytes;
  } finally {
    src.close();
  }
}

/** Reports a row left out (the first MAX_PROBLEMS are kept; the count goes on). */
function misfit(job: ImportJob, p: ImportProblem): void {
  job.problemCount++;
  job.rowsSkipped++;
  if (job.problems.length < MAX_PROBLEMS) job.problems.push(p);
}

/**
 * Shutdown of the app over `dataDir`: its running imports end at their next row as stopped, saying so
 * (in their shared state, so that the page, or another instance, does not show them running for
 * good); answers once they have ended, before the project databases close.
 */
export async function stopImports(dataDir: string): Promise<void> {
  const mine = [...jobs.values()].filter((j) => j.status === 'running' && runs.has(j.id) && files.get(j.id) === jobFile(dataDir, j.id));
  for (const j of mine) {
    j.shutdown = true;
    j.cancel = true;
  }
  await Promise.allSettled(mine.map((j) => runs.get(j.id)));
}

/** Asks a running job to stop; it ends (cancelled) at its next row. */
export function cancelJob(j: ImportJob): void {
  if (j.status === 'running') j.cancel = true;
}

/** Asks a job running here or on another instance to stop. */
export async function cancelAnywhere(meta: MetaStore, j: ImportJob): Promise<void> {
  if (jobs.get(j.id) === j) cancelJob(j);
  else if (j.status === 'running') await invalidation(meta).announce(CANCEL_TOPIC, j.id);
}
