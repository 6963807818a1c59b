/**
 * A real S3-API server on 127.0.0.1 for storage tests: `s3rver` (an S3-compatible server in
 * Node/Bun that keeps objects in a folder), with one bucket and its default keys S3RVER/S3RVER.
 */
import S3rver from 's3rver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startS3(bucket = 'tablo-files') {
  const directory = mkdtempSync(join(tmpdir(), 'tablo-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const info = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${info.port}`;
  const client = new Bun.S3Client({ endpoint, bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' });
  return {
    endpoint,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    /** Whether an object exists (read through the S3 API). */
    exists: (key: string) => client.file(key).exists(),
    text: (key: string) => client.file(key).text(),
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
