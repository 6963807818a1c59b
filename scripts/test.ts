/**
 * Runs every test suite (unit + integration in one bun test run, then the browser e2e suite) and
 * ends with the line `N passed, N failed, N skipped` summing all of them. Exit code 1 if anything failed.
 *
 *   bun run test            all suites
 *   bun run test unit       only test/unit (likewise: integration, e2e, pgmeta)
 *
 * `pgmeta` runs a representative subset of the integration suites a second time with their
 * metadata in PostgreSQL (TABLO_TEST_META=pg), counted into the same total.
 */
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** Why the PostgreSQL test server cannot hold metadata databases, or null when it can. */
async function pgProblem(): Promise<string | null> {
  const { default: postgres } = await import('postgres');
  const sql = postgres({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return null;
  } catch (e) {
    return `PostgreSQL is not reachable at 127.0.0.1:5432 (${(e as Error).message})`;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

interface Counts { passed: number; failed: number; skipped: number }

const SUITES: Record<string, string[]> = {
  unit: ['test/unit'],
  integration: ['test/integration'],
  e2e: ['test/e2e'],
  pgmeta: [
    'auth', 'team', 'access-rules', 'projects', 'rest', 'graphql',
    'views', 'shared-views', 'row-activity', 'project-meta', 'api-client', 'sql-client', 'import-export', 'app-store',
    'token-fast-path', 'connections', 'security-tokens',
  ].map((f) => `test/integration/${f}.test.ts`),
};
/** Extra environment per suite. */
const SUITE_ENV: Record<string, Record<string, string>> = { pgmeta: { TABLO_TEST_META: 'pg' } };

/** Counts test cases in a JUnit report written by `bun test --reporter=junit`. */
function countJunit(path: string): Counts | null {
  if (!existsSync(path)) return null;
  const xml = readFileSync(path, 'utf8');
  const cases = xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [];
  let failed = 0;
  let skipped = 0;
  for (const c of cases) {
    if (/<failure\b|<error\b/.test(c)) failed++;
    else if (/<skipped\b/.test(c)) skipped++;
  }
  return { passed: cases.length - failed - skipped, failed, skipped };
}

async function runSuite(name: string, paths: string[]): Promise<Counts> {
  const present = paths.filter((p) => existsSync(p));
  if (present.length === 0) return { passed: 0, failed: 0, skipped: 0 };
  mkdirSync('test-results', { recursive: true });
  const report = join('test-results', `${name}.junit.xml`);
  console.log(`\n=== ${name}: bun test ${present.join(' ')}`);
  const proc = Bun.spawn(['bun', 'test', '--timeout=60000', '--reporter=junit', `--reporter-outfile=${report}`, ...present], {
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, ...SUITE_ENV[name] },
  });
  const code = await proc.exited;
  const counts = countJunit(report) ?? { passed: 0, failed: 0, skipped: 0 };
  // A crash before the report (e.g. a file that does not load) counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(`=== ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (exit ${code})`);
  return counts;
}

const wanted = process.argv.slice(2);
const order = wanted.length ? wanted : ['unit+integration', 'pgmeta', 'e2e'];
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const name of order) {
  const paths = name === 'unit+integration' ? [...SUITES.unit!, ...SUITES.integration!] : SUITES[name];
  if (!paths) {
    console.error(`unknown suite '${name}' (unit, integration, e2e, pgmeta)`);
    process.exit(2);
  }
  if (name === 'pgmeta') {
    const problem = await pgProblem();
    if (problem && !(process.env.TABLO_REQUIRE_DBS ?? '').split(',').includes('pg')) {
      console.log(`\n=== pgmeta: skipped, ${problem}`);
      continue;
    }
  }
  const c = await runSuite(name, paths);
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
