/**
 * Secrets kept in the data directory, readable only by the owner (0600): the JWT secret (unless
 * NC_AUTH_JWT_SECRET is set) and the key that encrypts connection configs at rest.
 */
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../lib/ids';

/** The files of `<dataDir>/keys`. */
export const KEY_FILES = ['jwt-secret', 'connection-key'];

export interface Secrets {
  jwtSecret: string;
  /** 32 bytes, base64: encrypts project connection configs (AES-256-GCM). */
  connectionKey: string;
}

/**
 * The secret in `path`, made first when there is none. Instances sharing a data directory (NC_DB) may
 * start together: the value is written whole to a file of its own and linked into place, which fails
 * when another got there first, so every instance reads the one value on disk (never half a file,
 * never a value that another instance overwrote after using it).
 */
function readOrCreate(path: string, make: () => string): string {
  if (!existsSync(path)) {
    const draft = `${path}.${process.pid}.${randomToken(6)}.new`;
    writeFileSync(draft, make() + '\n', { mode: 0o600 });
    chmodSync(draft, 0o600);
    try {
      linkSync(draft, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(draft);
    }
  }
  return readFileSync(path, 'utf8').trim();
}

/** Loads or generates the secrets under `<dataDir>/keys`. */
export function loadSecrets(dataDir: string, jwtSecretFromConfig?: string): Secrets {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const jwtSecret = jwtSecretFromConfig ?? readOrCreate(join(dir, 'jwt-secret'), () => randomToken(48));
  const keyFile = join(dir, 'connection-key');
  const connectionKey = readOrCreate(keyFile, () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'));
  // A key cut short or edited would fail every connection saved from now on (and open none saved before).
  if (!/^[A-Za-z0-9+/]{43}=$/.test(connectionKey)) {
    throw new Error(`${keyFile} is not a key Tablo wrote (32 bytes in base64): put back the one from a backup of the data directory`);
  }
  return { jwtSecret, connectionKey };
}
