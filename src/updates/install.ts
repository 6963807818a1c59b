/**
 * Installing a release into the single binary: the file the feed names is downloaded beside the running
 * binary, its SHA-256 must match the feed's, then the old binary is kept as `<name>.old` and the new one
 * takes its name; the running process keeps the file it started from, so the new version runs from the
 * next start. Under Docker (the image sets NC_UPDATE_MODE=notice), with NC_UPDATE_MODE=notice, or when
 * Tablo runs from source, nothing is replaced and the answer says what to do instead.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { badRequest, conflict, isAppError } from '../lib/errors';
import type { Release } from './feed';

export interface InstallTarget {
  /** Path of the running binary; null when Tablo runs from source (process.execPath is then `bun`). */
  binary: string | null;
  inDocker: boolean;
  /** This process may write the binary's folder (a release can be put beside it); unset means yes. */
  writable?: boolean;
}

/** Where this process can install to. */
export function installTarget(): InstallTarget {
  // Compiled, the entry point lives in the binary's embedded file system (import.meta.path cannot tell:
  // the bundler writes the source path into it).
  const compiled = Bun.main.includes('$bunfs') || Bun.main.includes('~BUN');
  const binary = compiled ? process.execPath : null;
  let writable = false;
  if (binary) {
    try {
      accessSync(dirname(binary), constants.W_OK);
      writable = true;
    } catch {}
  }
  return { binary, inDocker: existsSync('/.dockerenv'), writable };
}

/**
 * How this server takes in a newer release: `binary` replaces itself; `docker` (pull the new image),
 * `notice` (NC_UPDATE_MODE=notice, or a binary in a folder it may not write) and `source` only announce it.
 * With NC_UPDATE_MODE=auto (the default) a compiled binary updates itself wherever it runs, also inside
 * a container, as long as it may write its folder; the Docker image sets NC_UPDATE_MODE=notice.
 */
export type InstallMode = 'binary' | 'docker' | 'notice' | 'source';

export function installMode(target: InstallTarget, setting: 'auto' | 'binary' | 'notice' = 'auto'): InstallMode {
  if (!target.binary) return target.inDocker ? 'docker' : 'source';
  if (setting === 'notice') return target.inDocker ? 'docker' : 'notice';
  if (setting === 'binary' || target.writable !== false) return 'binary';
  return target.inDocker ? 'docker' : 'notice';
}

/** Why a server in this mode does not install releases itself (null for `binary`). */
export function refusal(mode: InstallMode): string | null {
  if (mode === 'docker') return 'Tablo runs in Docker: pull the new image instead';
  if (mode === 'source') return 'Tablo runs from source here: only the single binary updates itself';
  if (mode === 'notice') return 'This server only announces new versions (NC_UPDATE_MODE=notice): replace Tablo the way it was installed';
  return null;
}

const MAX_BYTES = 512 * 1024 * 1024;

/** Downloads, checks and swaps in the release; answers the path of the kept old binary. */
export async function installRelease(release: Release, target: InstallTarget, mode: InstallMode, timeoutMs = 300_000): Promise<{ installed: string; previous: string }> {
  const refused = refusal(mode);
  if (refused || !target.binary) throw badRequest(refused ?? 'Tablo runs from source here: only the single binary updates itself');
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
    try {
      await rename(next, target.binary);
    } catch (e) {
      // The running binary goes back to its name: a failed install leaves Tablo as it was.
      await rename(previous, target.binary);
      throw e;
    }
  } catch (e) {
    await Promise.resolve(writer.end()).catch(() => {});
    await rm(next, { force: true });
    if (isAppError(e)) throw e;
    throw conflict(`Tablo ${release.version} could not be put beside the binary (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was replaced`);
  }
  return { installed: target.binary, previous };
}
