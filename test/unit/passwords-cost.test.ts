/**
 * Passwords are hashed with argon2id at Bun's default cost (64 MiB, 2 passes) by every running
 * Tablo; the lowest cost of the in-process test apps (hashCheaplyForTests) is reached only under
 * `bun test`. Each case runs in a process of its own: this test process may have switched already.
 */
import { expect, test } from 'bun:test';
import { join } from 'node:path';

const PASSWORDS = join(import.meta.dir, '../../src/auth/passwords.ts');

/** Runs `code` (with hashPassword, verifyPassword and hashCheaplyForTests in scope) in a new Bun process; answers its output. */
async function inProcess(code: string, env: Record<string, string | undefined>): Promise<string> {
  const script = `import { hashPassword, verifyPassword, hashCheaplyForTests } from ${JSON.stringify(PASSWORDS)};\n${code}`;
  const proc = Bun.spawn(['bun', '-e', script], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code_] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code_ !== 0) throw new Error(err);
  return out.trim();
}

test('a running Tablo hashes at argon2id with 64 MiB and 2 passes', async () => {
  const hash = await inProcess('console.log(await hashPassword("password123"))', { NODE_ENV: 'production' });
  expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,p=1\$/);
});

test('the test-only low cost cannot be switched on outside bun test, with NODE_ENV unset or production', async () => {
  for (const NODE_ENV of [undefined, 'production', 'development']) {
    const out = await inProcess('console.log(hashCheaplyForTests(), await hashPassword("password123"))', { NODE_ENV });
    expect(out).toMatch(/^false \$argon2id\$v=19\$m=65536,t=2,p=1\$/);
  }
});

test('under bun test the low cost hashes argon2id still, and both costs verify', async () => {
  const out = await inProcess(
    [
      'const strong = await hashPassword("password123");',
      'const switched = hashCheaplyForTests();',
      'const cheap = await hashPassword("password123");',
      'console.log(switched, cheap.split("$").slice(0, 4).join("$"), await verifyPassword("password123", strong), await verifyPassword("password123", cheap), await verifyPassword("wrong", cheap));',
    ].join('\n'),
    { NODE_ENV: 'test' },
  );
  expect(out).toBe('true $argon2id$v=19$m=8,t=1,p=1 true true false');
});
