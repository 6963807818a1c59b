/**
 * Installing a release into the single binary: the file the feed names is downloaded beside the running
 * binary, its SHA-256 must match the feed's, then the old binary is kept as `<name>.old` and the new one
 * takes its name; it runs from the next start. Under Docker, or when Tablo runs from source, nothing is
 * replaced and the answer says what to do instead.
 */
import { existsSync } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { badRequest, conflict } from '../lib/errors';
import type { Release } from './feed';

export interface InstallTarget {
  /** Path of the running binary; null when Tablo runs from source. */
  binary: string | null;
  inDocker: boolean;
}

/** Where this process can install to. */
export function installTarget(): InstallTarget {
  const compiled = import.meta.path.includes('$bunfs') || import.meta.path.includes('~BUN');
  return { binary: compiled ? process.execPath : null, inDocker: existsSync('/.dockerenv') };
}

const MAX_BYTES = 512 * 1024 * 1024;

/** Downloads, checks and swaps in the release; answers the path of the kept old binary. */
export async function installRelease(release: Release, target: InstallTarget, timeoutMs = 300_000): Promise<{ installed: string; previous: string }> {
  if (target.inDocker) throw badRequest('Tablo runs in Docker: pull the new image instead');
  if (!target.binary) throw badRequest('Tablo runs from source here: only the single binary updates itself');
  if (!release.url) throw badRequest(`The feed names no download for ${release.version}`);
  if (!release.sha256) throw badRequest(`The feed names no SHA-256 for ${release.version}, so the download cannot be checked`);
  const next = `${target.binary}.new`;
  const previous = `${target.binary}.old`;
  let res: Response;
  try {
    res = await fetch(release.url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw conflict(`The download of ${release.version} could not be reached`);
  }
  if (!res.ok || !res.body) throw conflict(`The download of ${release.version} answered ${res.status}`);
  const hash = new Bun.CryptoHasher('sha256');
  const writer = Bun.file(next).writer();
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > MAX_BYTES) throw conflict(`The download of ${release.version} is larger than 512 MB`);
      hash.update(chunk);
      writer.write(chunk);
    }
    await writer.end();
    const got = hash.digest('hex');
    if (got !== release.sha256.toLowerCase()) throw conflict(`The download of ${release.version} does not match its SHA-256 (got ${got}); nothing was replaced`);
    await chmod(next, 0o755);
    await rename(target.binary, previous);
    await rename(next, target.binary);
  } catch (e) {
    await Promise.resolve(writer.end()).catch(() => {});
    await rm(next, { force: true });
    throw e;
  }
  return { installed: target.binary, previous };
}
