/** Password hashing (argon2id through Bun.password) and the spec's validation messages. */
import { z } from 'zod';
import { LIMITS } from '../config/limits';
import { badRequest } from '../lib/errors';

/** argon2id at Bun's default cost (64 MiB, 2 passes): what every running Tablo hashes with. */
const PRODUCTION_COST: Bun.Password.Argon2Algorithm = { algorithm: 'argon2id' };
/** argon2id's lowest cost (8 KiB, 1 pass): for the in-process test apps only, see hashCheaplyForTests. */
const TEST_COST: Bun.Password.Argon2Algorithm = { algorithm: 'argon2id', memoryCost: 8, timeCost: 1 };
let cost = PRODUCTION_COST;

/**
 * TEST ONLY. Makes this process hash passwords at argon2id's lowest cost: the in-process test apps
 * (test/helpers/app.ts) sign up and sign in some thousand times, and at the production cost those
 * hashes were most of the integration suites' time. Verifying is unchanged (a hash names its own
 * cost). No setting or environment variable reaches it: only test code calls it, and it refuses
 * outside `bun test` (which sets NODE_ENV=test; answers whether it switched), so a running Tablo always hashes at PRODUCTION_COST.
 */
export function hashCheaplyForTests(): boolean {
  if (process.env.NODE_ENV !== 'test') return false;
  cost = TEST_COST;
  return true;
}

export const hashPassword = (plain: string) => Bun.password.hash(plain, cost);
export const verifyPassword = (plain: string, hash: string) => Bun.password.verify(plain, hash).catch(() => false);

/** A hash to compare against when the user does not exist, so timing does not tell. */
let dummyHash: Promise<string> | null = null;
export const dummyVerify = async (plain: string) => {
  dummyHash ??= hashPassword('tablo-timing-equaliser');
  await verifyPassword(plain, await dummyHash);
  return false;
};

export const emailField = z
  .string({ error: 'E-mail is required' })
  .trim()
  .min(1, 'E-mail is required')
  .pipe(z.email({ error: 'E-mail must be valid' }))
  .transform((e) => e.toLowerCase());

export const passwordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(LIMITS.passwordMinLength, `Your password must be at least ${LIMITS.passwordMinLength} characters`);

/**
 * Parses a body with a zod schema; the first problem becomes 400 `{msg}` in the spec's wording.
 * zod's own words ('Invalid input: expected string, received number') get the field in front.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  const where = i.path.map(String).join('.');
  throw badRequest(where && /^Invalid (input|option)\b/.test(i.message) ? `${where}: ${i.message}` : i.message);
}
