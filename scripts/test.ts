/**
 * Runs every test suite (unit + integration in one bun test run, then the browser e2e suite) and
 * ends with the line `N passed, N failed, N skipped` summing all of them. Exit code 1 if anything failed.
 *
 *   bun run test            all suites
 *   bun run test unit       only test/unit (likewise: integration, e2e, pgmeta)
 *
 * A test file with failures is run once more on its own (see runSuite); the failures of the first
 * run are printed either way.
 *
 * `pgmeta` runs a representative subset of the integration suites a second time with their
 * metadata in PostgreSQL (TABLO_TEST_META=pg), counted into the same total.
 */
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
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

/** Counts test cases per test file in a JUnit report written by `bun test --reporter=junit`. */
function countJunit(path: string): Map<string, Counts> | null {
  if (!existsSync(path)) return null;
  const xml = readFileSync(path, 'utf8');
  const cases = xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [];
  const byFile = new Map<string, Counts>();
  for (const c of cases) {
    const file = /\bfile="([^"]*)"/.exec(c)?.[1] ?? '';
    const counts = byFile.get(file) ?? { passed: 0, failed: 0, skipped: 0 };
    if (/<failure\b|<error\b/.test(c)) counts.failed++;
    else if (/<skipped\b/.test(c)) counts.skipped++;
    else counts.passed++;
    byFile.set(file, counts);
  }
  return byFile;
}

const sum = (counts: Iterable<Counts>): Counts => {
  const out = { passed: 0, failed: 0, skipped: 0 };
  for (const c of counts) (out.passed += c.passed), (out.failed += c.failed), (out.skipped += c.skipped);
  return out;
};

/** Names of the failed test cases of a JUnit report. */
function failedNames(path: string): string[] {
  const xml = existsSync(path) ? readFileSync(path, 'utf8') : '';
  return (xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [])
    .filter((c) => /<failure\b|<error\b/.test(c))
    .map((c) => `${/\bfile="([^"]*)"/.exec(c)?.[1]}: ${/\bname="([^"]*)"/.exec(c)?.[1]}`);
}

/** Files whose failures are run once more (more failed files than this: something is broken, not flaky). */
const RERUN_MAX_FILES = 3;

function runBun(name: string, report: string, paths: string[]) {
  return Bun.spawn(['bun', 'test', '--timeout=60000', '--reporter=junit', `--reporter-outfile=${report}`, ...paths], {
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, ...SUITE_ENV[name] },
  }).exited;
}

/**
 * Runs one suite. A file with failed tests (at most RERUN_MAX_FILES of them) is run once more on its
 * own, and its counts are those of that second run: a test that fails on a busy machine and passes
 * alone is named in the output (and in test-results/<suite>.rerun.txt), not hidden; one that fails
 * twice fails the suite.
 */
async function runSuite(name: string, paths: string[]): Promise<Counts> {
  const present = paths.filter((p) => existsSync(p));
  if (present.length === 0) return { passed: 0, failed: 0, skipped: 0 };
  mkdirSync('test-results', { recursive: true });
  const report = join('test-results', `${name}.junit.xml`);
  console.log(`\n=== ${name}: bun test ${present.join(' ')}`);
  let code = await runBun(name, report, present);
  const byFile = countJunit(report) ?? new Map<string, Counts>();
  const failedFiles = [...byFile].filter(([file, c]) => c.failed > 0 && existsSync(file)).map(([file]) => file);
  if (failedFiles.length > 0 && failedFiles.length <= RERUN_MAX_FILES) {
    const first = failedNames(report);
    console.log(`\n=== ${name}: ${first.length} failed in ${failedFiles.join(', ')}; these files run once more:`);
    for (const f of first) console.log(`    first run failed: ${f}`);
    const rerunReport = join('test-results', `${name}.rerun.junit.xml`);
    const rerunCode = await runBun(name, rerunReport, failedFiles);
    const again = countJunit(rerunReport);
    if (again) {
      for (const file of failedFiles) byFile.set(file, again.get(file) ?? { passed: 0, failed: 1, skipped: 0 });
      if (!failedNames(rerunReport).length && rerunCode === 0 && sum(byFile.values()).failed === 0) code = 0;
    }
    writeFileSync(join('test-results', `${name}.rerun.txt`), `${first.join('\n')}\n`);
  }
  const counts = sum(byFile.values());
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
