/**
 * Runs every test suite and ends with the line `N passed, N failed, N skipped` summing all of them.
 * Exit code 1 if anything failed.
 *
 *   bun run test            all suites
 *   bun run test unit       only test/unit (likewise: integration, e2e, pgmeta, unit+integration)
 *
 * Every suite runs side by side with the others, each on databases of its own (TABLO_TEST_DB_SUFFIX):
 * unit + integration in two runs of about equal time (the second's suffix gains `_i2`), `pgmeta` (a
 * representative subset of the integration suites run again with their metadata in PostgreSQL,
 * TABLO_TEST_META=pg, suffix `_pm`), and the browser suite in TABLO_TEST_SHARDS shards (3 by
 * default) as soon as the binary is built. Their tests wait on timers, child processes, databases,
 * a browser and a server more than they use a core: one after the other they took 22 minutes on a
 * 2-core machine, side by side 11-12. Runs are balanced by the file times of the last run's
 * reports in test-results/ (test/durations.json for a fresh checkout). Each run writes its output
 * to test-results/<run>.log, printed whole once it ends, followed by `=== <suite> done after N min`.
 *
 * A test file with failures is run once more on its own (see runSuite); the failures of the first
 * run are printed either way.
 */
import { mkdirSync, readFileSync, existsSync, writeFileSync, readdirSync, statSync } from 'node:fs';
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
/** One `bun test` run: its name (reports and logs are named after it), files and extra environment. */
interface Run { name: string; paths: string[]; env?: Record<string, string> }

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
const SUFFIX = process.env.TABLO_TEST_DB_SUFFIX ?? '';
/** Extra environment per suite: pgmeta's databases are its own, so it runs beside the integration suite. */
const SUITE_ENV: Record<string, Record<string, string>> = { pgmeta: { TABLO_TEST_META: 'pg', TABLO_TEST_DB_SUFFIX: `${SUFFIX}_pm` } };
/** Seconds each unit, integration and browser test file took in a whole run (for balancing the runs of a fresh checkout). */
const DURATIONS = 'test/durations.json';
const SHARDS = Math.max(1, Number(process.env.TABLO_TEST_SHARDS ?? 3) || 1);

/** Counts test cases per test file in a JUnit report written by `bun test --reporter=junit`. */
function countJunit(path: string): Map<string, Counts> | null {
  if (!existsSync(path)) return null;
  const byFile = new Map<string, Counts>();
  for (const c of testCases(path)) {
    const file = /\bfile="([^"]*)"/.exec(c)?.[1] ?? '';
    const counts = byFile.get(file) ?? { passed: 0, failed: 0, skipped: 0 };
    if (/<failure\b|<error\b/.test(c)) counts.failed++;
    else if (/<skipped\b/.test(c)) counts.skipped++;
    else counts.passed++;
    byFile.set(file, counts);
  }
  return byFile;
}

const testCases = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '').match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [];

const sum = (counts: Iterable<Counts>): Counts => {
  const out = { passed: 0, failed: 0, skipped: 0 };
  for (const c of counts) (out.passed += c.passed), (out.failed += c.failed), (out.skipped += c.skipped);
  return out;
};

/** Names of the failed test cases of a JUnit report. */
const failedNames = (path: string) =>
  testCases(path)
    .filter((c) => /<failure\b|<error\b/.test(c))
    .map((c) => `${/\bfile="([^"]*)"/.exec(c)?.[1]}: ${/\bname="([^"]*)"/.exec(c)?.[1]}`);

/** Files whose failures are run once more (more failed files than this: something is broken, not flaky). */
const RERUN_MAX_FILES = 3;

/** Runs `bun test` over paths; its output goes to `log` when given, else straight through. */
async function runBun(run: Run, report: string, paths: string[], log: ((text: string) => void) | null): Promise<number> {
  const proc = Bun.spawn(['bun', 'test', '--timeout=60000', '--reporter=junit', `--reporter-outfile=${report}`, ...paths], {
    stdout: log ? 'pipe' : 'inherit',
    stderr: log ? 'pipe' : 'inherit',
    env: { ...process.env, ...run.env },
  });
  if (log) {
    const drain = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) log(decoder.decode(chunk, { stream: true }));
    };
    await Promise.all([drain(proc.stdout as ReadableStream<Uint8Array>), drain(proc.stderr as ReadableStream<Uint8Array>)]);
  }
  return proc.exited;
}

/**
/** First passes of the runs still going (the suites run side by side and load the machine). */
let firstPasses = 0;
const calmWaiters: (() => void)[] = [];
const firstPassEnded = () => {
  if (--firstPasses === 0) for (const wake of calmWaiters.splice(0)) wake();
};
/** Resolves once no first pass runs any more: the machine is then as quiet as it gets. */
const calm = () => (firstPasses === 0 ? Promise.resolve() : new Promise<void>((wake) => calmWaiters.push(wake)));
let rerunTail: Promise<unknown> = Promise.resolve();
/** Reruns go one at a time. */
const oneAtATime = <T>(fn: () => Promise<T>): Promise<T> => {
  const r = rerunTail.then(fn, fn);
  rerunTail = r.catch(() => {});
  return r;
};

/**
 * Runs one suite. A file with failed tests (at most RERUN_MAX_FILES of them) is run once more on its
 * own, and its counts are those of that second run: a test that fails on a busy machine and passes
 * alone is named in the output (and in test-results/<suite>.rerun.txt), not hidden; one that fails
 * twice fails the suite. The second run waits until every run's first pass has ended and goes one
 * at a time, so it meets a quiet machine, not the load that may have made the first fail.
 * `quiet`: the output goes to test-results/<suite>.log and is printed at the end.
 */
async function runSuite(run: Run, quiet: boolean): Promise<Counts> {
  const present = run.paths.filter((p) => existsSync(p));
  if (present.length === 0) return { passed: 0, failed: 0, skipped: 0 };
  const report = join('test-results', `${run.name}.junit.xml`);
  let text = '';
  const out = quiet ? (s: string) => void (text += s) : null;
  const say = (line: string) => (quiet ? (text += `${line}\n`) : console.log(line));
  say(`\n=== ${run.name}: bun test ${present.join(' ')}`);
  firstPasses++;
  let code: number;
  try {
    code = await runBun(run, report, present, out);
  } finally {
    firstPassEnded();
  }
  const byFile = countJunit(report) ?? new Map<string, Counts>();
  const failedFiles = [...byFile].filter(([file, c]) => c.failed > 0 && existsSync(file)).map(([file]) => file);
  if (failedFiles.length > 0 && failedFiles.length <= RERUN_MAX_FILES) {
    const first = failedNames(report);
    say(`\n=== ${run.name}: ${first.length} failed in ${failedFiles.join(', ')}; these files run once more, once every first run has ended:`);
    for (const f of first) say(`    first run failed: ${f}`);
    const rerunReport = join('test-results', `${run.name}.rerun.junit.xml`);
    await calm();
    const rerunCode = await oneAtATime(() => runBun(run, rerunReport, failedFiles, out));
    const again = countJunit(rerunReport);
    if (again) {
      for (const file of failedFiles) byFile.set(file, again.get(file) ?? { passed: 0, failed: 1, skipped: 0 });
      if (!failedNames(rerunReport).length && rerunCode === 0 && sum(byFile.values()).failed === 0) code = 0;
    }
    writeFileSync(join('test-results', `${run.name}.rerun.txt`), `${first.join('\n')}\n`);
  }
  const counts = sum(byFile.values());
  // A crash before the report (e.g. a file that does not load) counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  say(`=== ${run.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (exit ${code})`);
  if (quiet) {
    writeFileSync(join('test-results', `${run.name}.log`), text);
    process.stdout.write(text);
  }
  return counts;
}

/**
 * Test files below the roots, with how long each took in the last run's reports of the runs named
 * `name` or `name-<n>`, else in test/durations.json (seconds measured in a whole run, for a
 * fresh checkout), else its size as a guess.
 */
function weightedFiles(roots: string[], name: string): { file: string; weight: number }[] {
  const files: string[] = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const n of readdirSync(p).sort()) walk(join(p, n));
    else if (/\.test\.tsx?$/.test(p)) files.push(p);
  };
  for (const root of roots) if (existsSync(root)) walk(root);
  const measured: Record<string, number> = existsSync(DURATIONS) ? JSON.parse(readFileSync(DURATIONS, 'utf8')) : {};
  const took = new Map<string, number>(Object.entries(measured));
  const reports = new RegExp(`^${name.replace(/[+]/g, '\\+')}(-\\d+)?\\.junit\\.xml$`);
  // Oldest report first, so that a file's time is the one of the newest report that ran it.
  const found = (existsSync('test-results') ? readdirSync('test-results') : []).filter((r) => reports.test(r));
  for (const report of found.sort((a, b) => statSync(join('test-results', a)).mtimeMs - statSync(join('test-results', b)).mtimeMs)) {
    for (const m of readFileSync(join('test-results', report), 'utf8').matchAll(/<testsuite name="([^"]+\.test\.tsx?)"[^>]*\btime="([\d.]+)"/g)) took.set(m[1]!, Number(m[2]));
  }
  return files.map((file) => ({ file, weight: took.get(file) ?? statSync(file).size / 500 }));
}

/**
 * The files below the roots in `n` runs named `name-<i>` of about equal time (longest first, each to
 * the lightest run). `env(i)`: the extra environment of run i (from 0).
 */
function shards(roots: string[], name: string, n: number, env: (i: number) => Record<string, string> | undefined = () => undefined): Run[] {
  const runs = Array.from({ length: n }, (_, i) => ({ name: `${name}-${i + 1}`, paths: [] as string[], load: 0, env: env(i) }));
  for (const { file, weight } of weightedFiles(roots, name).sort((a, b) => b.weight - a.weight)) {
    const lightest = runs.reduce((a, b) => (b.load < a.load ? b : a));
    lightest.paths.push(file);
    lightest.load += weight;
  }
  return runs.filter((r) => r.paths.length).map(({ name, paths, env }) => ({ name, paths, ...(env ? { env } : {}) }));
}

/** The browser suite: the binary built once (`built`: that build, started earlier), then its shards side by side, counted as one suite. */
async function runBrowserSuite(built: Promise<unknown>, quiet: boolean): Promise<Counts> {
  if (!existsSync(SUITES.e2e![0]!)) return { passed: 0, failed: 0, skipped: 0 };
  try {
    await built;
  } catch (e) {
    console.log(`\n=== e2e: the binary could not be built (${(e as Error).message})`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const runs = shards(SUITES.e2e!, 'e2e', SHARDS);
  const counts = sum(await Promise.all(runs.map((r) => runSuite(r, quiet))));
  console.log(`=== e2e: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${runs.length} shards)`);
  return counts;
}

mkdirSync('test-results', { recursive: true });
const wanted = process.argv.slice(2);
const known = ['unit', 'integration', 'unit+integration', 'pgmeta', 'e2e'];
for (const name of wanted) {
  if (!known.includes(name)) {
    console.error(`unknown suite '${name}' (${known.join(', ')})`);
    process.exit(2);
  }
}
const asked = (name: string) => wanted.length === 0 || wanted.includes(name);
const started = Date.now();
const minutes = () => `${((Date.now() - started) / 60_000).toFixed(1)} min`;

/** The suites that run in this process's Bun, side by side with the browser suite. */
const first: Run[] = [];
// Unit and integration files in two runs side by side, the second on databases of its own (its
// TABLO_TEST_DB_SUFFIX gains `_i2`): many integration tests wait on timers, child processes and
// databases, and one run after the other they were the longest chain of the whole command.
if (asked('unit+integration') || (asked('unit') && asked('integration')))
  first.push(...shards([...SUITES.unit!, ...SUITES.integration!], 'unit+integration', 2, (i) => (i ? { TABLO_TEST_DB_SUFFIX: `${SUFFIX}_i${i + 1}` } : undefined)));
else if (asked('unit')) first.push({ name: 'unit', paths: SUITES.unit! });
else if (asked('integration')) first.push({ name: 'integration', paths: SUITES.integration! });
if (asked('pgmeta')) {
  const problem = await pgProblem();
  if (problem && !(process.env.TABLO_REQUIRE_DBS ?? '').split(',').includes('pg')) console.log(`\n=== pgmeta: skipped, ${problem}`);
  else first.push({ name: 'pgmeta', paths: SUITES.pgmeta!, env: SUITE_ENV.pgmeta });
}

// The binary is built while the first suites start, and the browser shards start as soon as it is
// there: they wait on Chromium and the server more than they use a core.
const e2e = asked('e2e');
const built = e2e ? import('../test/e2e/binary').then(({ ensureBinary }) => ensureBinary()) : null;
const quiet = first.length + (e2e ? SHARDS : 0) > 1;
const timed = async (name: string, counts: Promise<Counts>) => {
  const c = await counts;
  console.log(`=== ${name} done after ${minutes()}`);
  return c;
};
const all = await Promise.all([
  ...first.map((r) => timed(r.name, runSuite(r, quiet))),
  ...(built ? [timed('e2e', runBrowserSuite(built, quiet))] : []),
]);
const total = sum(all);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
