/**
 * Where uploaded attachment files live: a folder inside the data directory (the default) or an
 * S3-compatible bucket through Bun's built-in S3 client (`Bun.S3Client`: SigV4 signing, path-style
 * or virtual-hosted URLs, presigned GETs), so no SDK is bundled.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export interface FileStorage {
  /** The plugin title ('Local' or 'S3'), stored with each file. */
  readonly name: string;
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

/** Objects in an S3-compatible bucket. */
export function s3Storage(input: S3Input): FileStorage {
  const client = new Bun.S3Client({
    endpoint: input.endpoint,
    region: input.region || 'us-east-1',
    bucket: input.bucket,
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
    virtualHostedStyle: !input.pathStyle,
  });
  const prefix = input.prefix ? `${input.prefix.replace(/\/+$/, '')}/` : '';
  return {
    name: 'S3',
    async put(key, data, type) {
      await client.write(prefix + key, data, { type });
    },
    async get(key) {
      const f = client.file(prefix + key);
      if (!(await f.exists())) return null;
      return new Blob([await f.arrayBuffer()]);
    },
    async delete(key) {
      await client.delete(prefix + key);
    },
    signedUrl(key, opts) {
      return client.presign(prefix + key, {
        expiresIn: opts.expiresIn,
        method: 'GET',
        contentDisposition: `inline; filename*=UTF-8''${encodeURIComponent(opts.name)}`,
        type: opts.type,
      });
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
