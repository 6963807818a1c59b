/**
 * Multipart uploads of dashboard calls (api-contract section 4: fields `file` and `json`), read as
 * a stream: the file goes straight to a temporary file under the data directory, never whole into
 * memory; other fields (small) are kept as text. Larger than `maxBytes` answers 413.
 */
import busboy from 'busboy';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, badRequest } from '../../lib/errors';
import { randomSlug } from '../../lib/ids';

/** A file received with a request, stored at `path` until the operation is done with it. */
export interface ReceivedFile {
  path: string;
  filename: string;
  mimeType: string;
  size: number;
}

export interface Multipart {
  fields: Record<string, string>;
  file?: ReceivedFile;
}

/** Most bytes a text field of a multipart body may hold. */
const FIELD_MAX = 1024 * 1024;

const tooLarge = (max: number) => new AppError('PAYLOAD_TOO_LARGE', `The upload is larger than the limit of ${max} bytes`);

/** Reads a multipart body: the part `file` into `<dir>/<random>`, the others as text. */
export async function receiveMultipart(request: Request, dir: string, maxBytes: number): Promise<Multipart> {
  const type = request.headers.get('content-type') ?? '';
  if (!request.body) throw badRequest('The multipart body is empty');
  mkdirSync(dir, { recursive: true });
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: { 'content-type': type }, limits: { fileSize: maxBytes, files: 1, fieldSize: FIELD_MAX, fields: 20 } });
  } catch {
    throw badRequest('The request is not valid multipart form data');
  }
  const fields: Record<string, string> = {};
  let file: ReceivedFile | undefined;
  let failure: Error | undefined;
  const writes: Promise<void>[] = [];
  bb.on('field', (name, value, info) => {
    if (info.valueTruncated) failure ??= badRequest(`The field '${name}' is too long`);
    fields[name] = value;
  });
  bb.on('file', (name, stream, info) => {
    if (name !== 'file' || file) {
      stream.resume();
      return;
    }
    const path = join(dir, `upload-${randomSlug(16)}`);
    const received: ReceivedFile = { path, filename: info.filename ?? 'upload', mimeType: info.mimeType, size: 0 };
    file = received;
    const out = createWriteStream(path);
    stream.on('data', (chunk: Buffer) => (received.size += chunk.length));
    stream.on('limit', () => (failure ??= tooLarge(maxBytes)));
    writes.push(
      new Promise((resolve, reject) => {
        out.on('finish', resolve);
        out.on('error', reject);
        stream.pipe(out);
      }),
    );
  });
  const done = new Promise<void>((resolve, reject) => {
    bb.on('close', resolve);
    bb.on('error', (e) => reject(badRequest(`The multipart body could not be read: ${(e as Error).message}`)));
  });
  try {
    const reader = request.body.getReader();
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      if (!bb.write(value)) await new Promise((r) => bb.once('drain', r));
    }
    bb.end();
    await done;
    await Promise.all(writes);
    if (failure) throw failure;
  } catch (e) {
    if (file) rmSync(file.path, { force: true });
    throw e instanceof AppError ? e : badRequest(`The multipart body could not be read: ${(e as Error).message}`);
  }
  return { fields, file };
}

/**
 * A multipart dashboard call: the caller must be signed in before the body is read; the `json`
 * field is the call's envelope and `file` the upload (in `<dataDir>/tmp/uploads`).
 */
export async function readDashboardUpload(request: Request, dataDir: string, maxBytes: number, signedIn: () => Promise<boolean>): Promise<{ body: unknown; upload?: ReceivedFile }> {
  if (!(await signedIn())) throw new AppError('UNAUTHORIZED', 'Not signed in');
  const m = await receiveMultipart(request, join(dataDir, 'tmp', 'uploads'), maxBytes);
  let body: unknown = {};
  try {
    if (m.fields.json) body = JSON.parse(m.fields.json);
  } catch {
    if (m.file) rmSync(m.file.path, { force: true });
    throw badRequest('The field json of the multipart body is not valid JSON');
  }
  return { body, upload: m.file };
}
