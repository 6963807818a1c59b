/**
 * The password check of shared links: wrong or missing passwords answer 403 and count per link
 * and address and per link; past either limit every attempt answers 429 until the window ends,
 * except a password verified before; a new hash is checked afresh. Hashes here are real argon2id
 * with small costs, so the test runs quickly.
 */
import { describe, expect, test } from 'bun:test';
import { PasswordGuard } from '../../src/api/shared/password-guard';
import { isAppError } from '../../src/lib/errors';

const cheapHash = (plain: string) => Bun.password.hash(plain, { algorithm: 'argon2id', memoryCost: 8, timeCost: 1 });

async function status(p: Promise<void>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (isAppError(e)) return e.status;
    throw e;
  }
}

describe('shared link passwords', () => {
  test('missing and wrong passwords answer 403 until the limit of the address, then 429, even for the right one', async () => {
    const guard = new PasswordGuard(3, 60_000);
    const hash = await cheapHash('right');
    expect(await status(guard.check('L', 'L|ip1', hash, null))).toBe(403);
    expect(await status(guard.check('L', 'L|ip1', hash, 'wrong'))).toBe(403);
    expect(await status(guard.check('L', 'L|ip1', hash, 'wrong again'))).toBe(403);
    expect(await status(guard.check('L', 'L|ip1', hash, 'right'))).toBe(429);
    // Another address still may try.
    expect(await status(guard.check('L', 'L|ip2', hash, 'right'))).toBe(200);
  });

  test('a password verified before keeps working past the limit; a new hash is checked afresh', async () => {
    const guard = new PasswordGuard(2, 60_000);
    const hash = await cheapHash('right');
    expect(await status(guard.check('L', 'L|ip', hash, 'right'))).toBe(200);
    for (let i = 0; i < 2; i++) expect(await status(guard.check('L', 'L|ip', hash, `guess ${i}`))).toBe(403);
    expect(await status(guard.check('L', 'L|ip', hash, 'guess 2'))).toBe(429);
    expect(await status(guard.check('L', 'L|ip', hash, 'right'))).toBe(200);
    const changed = await cheapHash('right');
    expect(await status(guard.check('L', 'L|ip', changed, 'right'))).toBe(429);
  });

  test('failures from many addresses count per link too (ten times the limit)', async () => {
    const guard = new PasswordGuard(1, 60_000);
    const hash = await cheapHash('right');
    for (let i = 0; i < 10; i++) expect(await status(guard.check('L', `L|ip${i}`, hash, 'wrong'))).toBe(403);
    expect(await status(guard.check('L', 'L|fresh', hash, 'right'))).toBe(429);
    expect(await status(guard.check('M', 'M|fresh', hash, 'right'))).toBe(200);
  });

  test('the window ends', async () => {
    const guard = new PasswordGuard(1, 30);
    const hash = await cheapHash('right');
    expect(await status(guard.check('L', 'L|ip', hash, 'wrong'))).toBe(403);
    expect(await status(guard.check('L', 'L|ip', hash, 'right'))).toBe(429);
    await Bun.sleep(40);
    expect(await status(guard.check('L', 'L|ip', hash, 'right'))).toBe(200);
  });
});
