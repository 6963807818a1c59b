/**
 * Where uploaded attachment files live: a folder inside the data directory (the default) or an
 * S3-compatible bucket through Bun's built-in S3 client (`Bun.S3Client`: SigV4 signing, path-style
 * or virtual-hosted URLs, presigned GETs), so no SDK is bundled.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { servedAs } from '../http/content-disposition';
import { LIMITS } from '../config/limits';

export interface FileStorage {
  /** The plugin title ('Local' or 'S3'). */
  readonly name: string;
  /**
   * What is stored with each file to find its storage again (src/plugins/state.ts storageNamed):
   * 'S3', or 'Local:<folder>', so that files stay readable after the Local folder is changed.
   * Files stored before it say 'Local' (the folder configured now).
   */
  readonly ref: string;
  put(key: string, data: Blob, type: string): Promise<void>;
  /** The file's bytes, or null when it is gone. */
  get(key: string): Promise<Blob | null>;
  delete(key: string): Promise<void>;
  /** A short-lived URL the browser may fetch directly (S3 only). */
  signedUrl?(key: string, opts: { expiresIn: number; name: string; type: string }): string;
}

/** Files under `<dataDir>/<folder>`; keys are checked to stay inside it. */
export function localStorage(dataDir: string, folder: string): FileStorage {
  const root = resolve(dataDir, folder);
  const pathOf = (key: string) => {
    const p = resolve(root, key);
    if (!p.startsWith(root + sep)) throw new Error(`Storage key outside the folder: ${key}`);
    return p;
  };
  return {
    name: 'Local',
    ref: `Local:${folder}`,
    async put(key, data) {
      const p = pathOf(key);
      await mkdir(dirname(p), { recursive: true });
      await Bun.write(p, data);
    },
    async get(key) {
      const p = pathOf(key);
      const s = await stat(p).catch(() => null);
      return s?.isFile() ? Bun.file(p) : null;
    },
    async delete(key) {
      const p = pathOf(key);
      await rm(p, { force: true });
      // The file's own folder (one per file id) goes with it.
      await rm(dirname(p), { recursive: false, force: true }).catch(() => {});
    },
  };
}

export interface S3Input {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  prefix: string;
}

/** What Bun's S3 client means by the codes of failures it words only 'an unexpected error has occurred'. */
const S3_NETWORK_FAILURES: Record<string, string> = {
  ConnectionRefused: 'the connection was refused',
  ConnectionClosed: 'the server closed the connection',
  ConnectionReset: 'the connection was reset',
  DNSResolveFailed: 'the host name could not be resolved',
  Timeout: 'the server did not answer in time',
  ConnectionTimeout: 'the server did not answer in time',
};

/** An S3 client error as a sentence that names the endpoint and what failed; other errors as they are. */
export function s3ErrorOf(endpoint: string, e: unknown): unknown {
  const err = e as { name?: string; code?: string; message?: string } | null;
  if (err?.name !== 'S3Error' || err.message !== 'an unexpected error has occurred') return e;
  const what = (err.code && S3_NETWORK_FAILURES[err.code]) ?? `error ${err.code ?? 'without a code'}`;
  return new Error(`could not reach ${endpoint}: ${what}`);
}

/** Objects in an S3-compatible bucket; a call without an answer after `timeoutMs` fails saying so. */
export function s3Storage(input: S3Input, timeoutMs: number = LIMITS.storageTimeoutMs): FileStorage {
  const client = new Bun.S3Client({
    endpoint: input.endpoint,
    region: input.region || 'us-east-1',
    bucket: input.bucket,
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
    virtualHostedStyle: !input.pathStyle,
  });
  const prefix = input.prefix ? `${input.prefix.replace(/\/+$/, '')}/` : '';
  const readable = (e: unknown) => {
    throw s3ErrorOf(input.endpoint, e);
  };
  // Bun's S3 client takes no abort signal: a server that takes the connection and never answers
  // would hold an upload (and its request) for good.
  const timed = <T>(call: Promise<T>): Promise<T> => {
    let timer: Timer | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`could not reach ${input.endpoint}: no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    return Promise.race([call.catch(readable), late]).finally(() => clearTimeout(timer));
  };
  return {
    name: 'S3',
    ref: 'S3',
    async put(key, data, type) {
      await timed(client.write(prefix + key, data, { type }));
    },
    async get(key) {
      const f = client.file(prefix + key);
      if (!(await timed(f.exists()))) return null;
      return new Blob([await timed(f.arrayBuffer())]);
    },
    async delete(key) {
      await timed(client.delete(prefix + key));
    },
    signedUrl(key, opts) {
      // Served as Tablo serves a local file: an HTML or SVG file downloads instead of running as a page of the bucket's site.
      const served = servedAs(opts.type, opts.name);
      return client.presign(prefix + key, { expiresIn: opts.expiresIn, method: 'GET', contentDisposition: served.disposition, type: served.type });
    },
  };
}

/** Writes, reads back and deletes a small object: the storage plugins' Test. */
export async function probeStorage(s: FileStorage): Promise<void> {
  const key = `tablo-probe/${crypto.randomUUID()}.txt`;
  const text = `Tablo storage test ${new Date().toISOString()}`;
  await s.put(key, new Blob([text]), 'text/plain');
  const back = await s.get(key);
  if (!back || (await back.text()) !== text) throw new Error('The test file could not be read back');
  await s.delete(key);
}

export const joinKey = (...parts: string[]) => join(...parts).split(sep).join('/');
