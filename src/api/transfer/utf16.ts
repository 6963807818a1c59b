/**
 * UTF-16 uploads: Excel's "Unicode Text" (and some other tools) save UTF-16 with a byte order
 * mark, which the CSV and JSON readers (UTF-8 only) would take for binary content. Such a file is
 * turned into UTF-8 once, in place, as it is received; the rest of the import then reads it as any
 * other text file.
 */
import { closeSync, createReadStream, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { badRequest } from '../../lib/errors';

/** The UTF-16 encoding a file's byte order mark names, or null. */
export function utf16Of(path: string): 'utf-16le' | 'utf-16be' | null {
  const fd = openSync(path, 'r');
  try {
    const b = new Uint8Array(2);
    if (readSync(fd, b, 0, 2, 0) < 2) return null;
    if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
    if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * When the file at `path` is UTF-16 (by its byte order mark), rewrites it as UTF-8 (the mark
 * dropped), streaming, and answers its new size; otherwise answers null and leaves it alone. A
 * file that is not valid UTF-16 is a 400.
 */
export async function utf16ToUtf8(path: string): Promise<number | null> {
  const encoding = utf16Of(path);
  if (!encoding) return null;
  const decoder = new TextDecoder(encoding, { fatal: true });
  const target = `${path}.utf8`;
  const out = Bun.file(target).writer();
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) out.write(decoder.decode(chunk, { stream: true }));
    out.write(decoder.decode());
  } catch {
    await out.end();
    rmSync(target, { force: true });
    throw badRequest('The file starts as UTF-16 text but is not: save the file as UTF-8 (with or without BOM) and upload it again');
  }
  await out.end();
  renameSync(target, path);
  return statSync(path).size;
}
