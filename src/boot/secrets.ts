/**
 * Secrets kept in the data directory, readable only by the owner (0600): the JWT secret (unless
 * NC_AUTH_JWT_SECRET is set) and the key that encrypts connection configs at rest.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../lib/ids';

export interface Secrets {
  jwtSecret: string;
  /** 32 bytes, base64: encrypts project connection configs (AES-256-GCM). */
  connectionKey: string;
}

function readOrCreate(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = make();
  writeFileSync(path, value + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return value;
}

/** Loads or generates the secrets under `<dataDir>/keys`. */
export function loadSecrets(dataDir: string, jwtSecretFromConfig?: string): Secrets {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const jwtSecret = jwtSecretFromConfig ?? readOrCreate(join(dir, 'jwt-secret'), () => randomToken(48));
  const connectionKey = readOrCreate(join(dir, 'connection-key'), () =>
    Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
  );
  return { jwtSecret, connectionKey };
}
