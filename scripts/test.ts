/**
 * Runs every test suite (unit + integration in one bun test run, then the browser e2e suite) and
 * ends with the line `N passed, N failed, N skipped` summing all of them. Exit code 1 if anything failed.
 *
 *   bun run test            all suites
 *   bun run test unit       only test/unit (likewise: integration, e2e)
 */
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

interface Counts { passed: number; failed: number; skipped: number }

const SUITES: Record<string, string[]> = {
  unit: ['test/unit'],
  integration: ['test/integration'],
  e2e: ['test/e2e'],
};

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
    env: process.env,
  });
  const code = await proc.exited;
  const counts = countJunit(report) ?? { passed: 0, failed: 0, skipped: 0 };
  // A crash before the report (e.g. a file that does not load) counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(`=== ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (exit ${code})`);
  return counts;
}

const wanted = process.argv.slice(2);
const order = wanted.length ? wanted : ['unit+integration', 'e2e'];
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const name of order) {
  const paths = name === 'unit+integration' ? [...SUITES.unit!, ...SUITES.integration!] : SUITES[name];
  if (!paths) {
    console.error(`unknown suite '${name}' (unit, integration, e2e)`);
    process.exit(2);
  }
  const c = await runSuite(name, paths);
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
