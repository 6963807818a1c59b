/**
 * Uploaded import files, kept under `<dataDir>/tmp/imports` between the upload, the preview and the
 * import itself, for one hour at most (or until their import ends). Each file has its record beside
 * it (`<id>.json`): the data directory is shared by every instance on one metadata store, so the
 * preview and the import may be asked of another instance than the one that took the upload.
 * Also the preview: the header, the first rows and a detected type per column, read from a sample
 * at the top of the file.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { badRequest, notFound } from '../../lib/errors';
import { randomSlug } from '../../lib/ids';
import { openRows } from './row-sources';
import type { FileKind } from './sniff';
import { choicesOf, decimalCommaFor, detectType, hasLongText, type ImportType } from './column-types';

export interface StoredUpload {
  id: string;
  projectId: string;
  dbAlias: string;
  /** Who uploaded it: only they may preview and import it. */
  owner: string;
  path: string;
  filename: string;
  size: number;
  kind: FileKind;
  sheets?: string[];
  at: number;
  /** Set once an import uses it. */
  busy?: boolean;
}

/** A detected column of the preview. */
export interface PreviewColumn {
  index: number;
  header: string;
  type: ImportType;
  /** Distinct values of the sample (the choices a select column would get). */
  choices: string[];
  /** The sample holds long or multi-line text. */
  long: boolean;
}

/** A cell of the sample holding an error of the workbook (#DIV/0!, #N/A, #REF!, #VALUE!...). */
export interface PreviewError {
  /** The row of the sample (0: the first under the header; those below PREVIEW_ROWS are shown). */
  row: number;
  /** The column of the file (its index). */
  column: number;
  error: string;
}

export interface Preview {
  columns: PreviewColumn[];
  /** The first rows under the header, as text (a cell holding an error as '': see errors). */
  rows: string[][];
  /** Rows read for the detection (at most SAMPLE_ROWS). */
  sampled: number;
  /**
   * The cells of the sample holding an error (XLSX only; at most MAX_PREVIEW_ERRORS): such a cell has
   * no value, and an import reports its row as a problem when its column is imported.
   */
  errors: PreviewError[];
}

const TTL_MS = 60 * 60 * 1000;
/** Rows read to detect types. */
export const SAMPLE_ROWS = 1000;
/** Rows shown in the preview. */
export const PREVIEW_ROWS = 20;
/** Error cells named in a preview at most. */
export const MAX_PREVIEW_ERRORS = 5000;
/** Most columns a file may have. */
const MAX_COLUMNS = 500;

const uploads = new Map<string, StoredUpload>();

const UPLOAD_ID = /^imp_[a-z0-9]+$/;
const recordPath = (path: string) => `${path}.json`;

/** The draft of a writeShared file: `<file>.<pid>.tmp`, the pid of the process writing it. */
const DRAFT = /\.(\d+)\.tmp$/;

/** Writes a small JSON file whole (a reader on another instance never sees half of it). */
export function writeShared(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const text = JSON.stringify(value);
  writeFileSync(tmp, text);
  try {
    renameSync(tmp, path);
  } catch (e) {
    // Swept as a dead process's draft by an instance starting at that instant (dropLeftDrafts): once more.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  }
}

/**
 * Removes the drafts of writeShared left in `dir` by processes that ended between writing and
 * renaming them (killed): those of processes still running on this machine stay.
 */
export function dropLeftDrafts(dir: string, names: string[]): void {
  for (const name of names) {
    const pid = Number(DRAFT.exec(name)?.[1] ?? 0);
    if (!pid || pid === process.pid || processRuns(pid)) continue;
    rmSync(join(dir, name), { force: true });
  }
}

const processRuns = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Reads a JSON file written by writeShared, or undefined. */
export function readShared<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The record of an upload of this data directory (taken by any instance), while its file is there. */
function sharedUpload(dataDir: string, id: string): StoredUpload | undefined {
  if (!UPLOAD_ID.test(id)) return undefined;
  const path = join(uploadsDir(dataDir), id);
  const u = readShared<StoredUpload>(recordPath(path));
  if (!u || u.id !== id || u.path !== path || !existsSync(path) || Date.now() - u.at > TTL_MS) return undefined;
  return u;
}

/**
 * The folder of stored uploads; files older than an hour that no upload holds (left by an earlier
 * run, or by an upload cut short) are removed there and in the folder of incoming files on first use.
 */
const cleaned = new Set<string>();
export function uploadsDir(dataDir: string): string {
  const dir = join(dataDir, 'tmp', 'imports');
  mkdirSync(dir, { recursive: true });
  if (!cleaned.has(dataDir)) {
    cleaned.add(dataDir);
    const held = new Set([...uploads.values()].flatMap((u) => [u.path, recordPath(u.path)]));
    for (const d of [dir, join(dataDir, 'tmp', 'uploads')]) {
      for (const f of existsSync(d) ? readdirSync(d) : []) {
        const p = join(d, f);
        if (!held.has(p) && Date.now() - statSync(p).mtimeMs > TTL_MS) rmSync(p, { force: true });
      }
    }
  }
  return dir;
}

function sweep(): void {
  const now = Date.now();
  for (const u of uploads.values()) if (!u.busy && now - u.at > TTL_MS && !readShared<StoredUpload>(recordPath(u.path))?.busy) dropUpload(u);
}

/** Keeps a received file (moved into the uploads folder) and answers its record. */
export function keepUpload(dataDir: string, file: { path: string; filename: string; size: number }, u: Pick<StoredUpload, 'projectId' | 'dbAlias' | 'owner' | 'kind' | 'sheets'>): StoredUpload {
  sweep();
  const id = `imp_${randomSlug(20)}`;
  const path = join(uploadsDir(dataDir), id);
  renameSync(file.path, path);
  const stored: StoredUpload = { ...u, id, path, filename: file.filename, size: file.size, at: Date.now() };
  writeShared(recordPath(path), stored);
  uploads.set(id, stored);
  return stored;
}

/** Marks an upload as being imported, here and for the other instances. */
export function markBusy(u: StoredUpload): void {
  u.busy = true;
  const local = uploads.get(u.id);
  if (local) local.busy = true;
  if (existsSync(u.path)) writeShared(recordPath(u.path), u);
}

/**
 * The caller's upload of this project database, or 404. Read from its record, so an upload taken
 * by another instance, or started or dropped there, is seen as it is.
 */
export function uploadOf(dataDir: string, id: string, projectId: string, dbAlias: string, owner: string): StoredUpload {
  const u = sharedUpload(dataDir, id);
  if (!u || u.projectId !== projectId || u.dbAlias !== dbAlias || u.owner !== owner) throw notFound('The uploaded file is gone (uploads are kept for an hour): upload it again');
  return u;
}

export function dropUpload(u: Pick<StoredUpload, 'id' | 'path'>): void {
  uploads.delete(u.id);
  rmSync(u.path, { force: true });
  rmSync(recordPath(u.path), { force: true });
}

/** Checks a header row: no empty and no repeated names. */
export function checkHeaders(headers: string[]): string[] {
  const names = headers.map((h) => h.trim());
  if (names.length > MAX_COLUMNS) throw badRequest(`The file has ${names.length} columns; at most ${MAX_COLUMNS} can be imported`);
  const seen = new Map<string, number>();
  names.forEach((n, i) => {
    if (!n) throw badRequest(`Column ${i + 1} of the header row has no name: every column needs a header`);
    const k = n.toLowerCase();
    if (seen.has(k)) throw badRequest(`The header '${n}' appears twice (columns ${seen.get(k)! + 1} and ${i + 1}): headers must differ`);
    seen.set(k, i);
  });
  return names;
}

/** Reads the header and a sample of the file: the preview, or 400 for a file that cannot be imported. */
export async function previewOf(u: StoredUpload, sheet?: string, delimiter?: string): Promise<Preview> {
  const kind: FileKind = delimiter ? { ...u.kind, delimiter } : u.kind;
  const src = openRows(u.path, kind, sheet ?? u.sheets?.[0]);
  let headers: string[] | undefined;
  const sample: string[][] = [];
  const errors: PreviewError[] = [];
  try {
    for await (const r of src.rows) {
      if (!headers) headers = checkHeaders(r);
      else {
        for (const [column, error] of src.cellErrors?.() ?? []) {
          if (column < headers.length && errors.length < MAX_PREVIEW_ERRORS) errors.push({ row: sample.length, column, error });
        }
        sample.push(r);
      }
      if (sample.length >= SAMPLE_ROWS) break;
    }
  } finally {
    src.close();
  }
  if (!headers) throw badRequest('The file holds no rows');
  if (sample.length === 0) throw badRequest('The file holds a header row but no data rows');
  const columns = headers.map((header, index) => {
    const values = sample.map((r) => r[index] ?? '');
    return { index, header, type: detectType(values, kind.format === 'csv' && decimalCommaFor(kind.delimiter)), choices: choicesOf(values), long: hasLongText(values) };
  });
  return { columns, rows: sample.slice(0, PREVIEW_ROWS).map((r) => headers!.map((_, i) => r[i] ?? '')), sampled: sample.length, errors };
}
