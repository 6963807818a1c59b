/** Random ids and secrets. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of `len` lowercase letters and digits. */
export function randomSlug(len: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(len));
  let s = '';
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length];
  return s;
}

/** A prefixed unique id, e.g. `us_k3j2...`. */
export const newId = (prefix: string) => `${prefix}_${randomSlug(16)}`;

/** A url-safe secret with `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

/** SHA-256 hex of a token, for storing tokens hashed. */
export function sha256(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex');
}

export const nowIso = () => new Date().toISOString();

/** `Sales Data!` -> `sales_data`; never empty. */
export function projectSlug(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return s || 'project';
}
