/**
 * The zip of a project's metadata: written with fflate, read back within named bounds (archive size,
 * number of entries, bytes per entry and in all, counted while inflating, so a zip bomb stops early)
 * and only under safe names (no absolute paths, no `..`, no backslashes).
 */
import { Unzip, UnzipInflate, UnzipPassThrough, strFromU8, strToU8, zipSync, type Zippable } from 'fflate';
import { AppError, badRequest } from '../../../lib/errors';

/** Bounds of an uploaded metadata zip. */
export const ARCHIVE_LIMITS = {
  /** Bytes of the zip file itself. */
  zipBytes: 20 * 1024 * 1024,
  /** Entries in the zip. */
  entries: 500,
  /** Bytes of one entry once inflated. */
  entryBytes: 20 * 1024 * 1024,
  /** Bytes of all entries once inflated. */
  totalBytes: 60 * 1024 * 1024,
};

/** Writes JSON documents by path into one zip. */
export function writeZip(files: Record<string, unknown>): Uint8Array {
  const z: Zippable = {};
  for (const [path, doc] of Object.entries(files)) z[path] = strToU8(JSON.stringify(doc, null, 2));
  return zipSync(z, { level: 6 });
}

/** A name is safe when it stays inside the archive: relative, forward slashes, no `.`/`..` parts. */
export function safeEntryName(name: string): boolean {
  if (!name || name.length > 300 || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name)) return false;
  return name.split('/').every((part, i, all) => (part !== '' || i === all.length - 1) && part !== '.' && part !== '..');
}

/** Reads every file entry of a zip as text, by name; refuses what breaks a bound or a name rule with 400 (413 for size). */
export function readZip(data: Uint8Array, limits = ARCHIVE_LIMITS): Map<string, string> {
  if (data.byteLength > limits.zipBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The zip is larger than ${limits.zipBytes} bytes`);
  if (data.byteLength < 22 || data[0] !== 0x50 || data[1] !== 0x4b) throw badRequest('The file is not a zip archive');
  const chunks = new Map<string, Uint8Array[]>();
  let entries = 0;
  let total = 0;
  let problem: AppError | null = null;
  const unzip = new Unzip((file) => {
    if (problem) return;
    if (++entries > limits.entries) {
      problem = badRequest(`The zip holds more than ${limits.entries} entries`);
      return;
    }
    if (!safeEntryName(file.name)) {
      problem = badRequest(`The zip entry '${file.name}' points outside the archive`);
      return;
    }
    if (file.name.endsWith('/')) return; // a folder
    const parts: Uint8Array[] = [];
    chunks.set(file.name, parts);
    let size = 0;
    file.ondata = (err, chunk) => {
      if (problem) return;
      if (err) {
        problem = badRequest(`The zip entry '${file.name}' is damaged: ${err.message}`);
        return;
      }
      size += chunk.length;
      total += chunk.length;
      if (size > limits.entryBytes) problem = badRequest(`The zip entry '${file.name}' inflates to more than ${limits.entryBytes} bytes`);
      else if (total > limits.totalBytes) problem = badRequest(`The zip inflates to more than ${limits.totalBytes} bytes`);
      else parts.push(chunk);
      if (problem) file.terminate();
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    // Fed in slices so a bound stops the work before the rest is inflated.
    const step = 64 * 1024;
    for (let i = 0; i < data.byteLength && !problem; i += step) unzip.push(data.subarray(i, Math.min(i + step, data.byteLength)), i + step >= data.byteLength);
  } catch (e) {
    if (!problem) problem = badRequest(`The zip is damaged: ${(e as Error).message}`);
  }
  if (problem) throw problem;
  if (entries === 0) throw badRequest('The zip is empty');
  const out = new Map<string, string>();
  for (const [name, parts] of chunks) {
    const buf = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      buf.set(p, at);
      at += p.length;
    }
    out.set(name, strFromU8(buf));
  }
  return out;
}
