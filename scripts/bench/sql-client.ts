/**
 * SQL Client benchmark (not a test): runs a 100,000-row query in the dashboard's SQL Client with
 * headless Chromium against the built binary, on PostgreSQL and SQLite, and measures the time from
 * Run to the first rows on screen, to every row read (the rest arrive page by page), how many rows
 * the grid holds in the DOM, and the time to scroll to the last row. Three runs each; the median is printed.
 *
 *   bun run build && bun scripts/bench/sql-client.ts
 */
import { launchBrowser, startTablo } from '../../test/e2e/helpers';
import { dropDatabase, freshDatabase } from '../../test/helpers/engines';

const ROWS = 100_000;
const QUERIES = {
  PostgreSQL: `SELECT g AS id, 'row ' || g AS label, g * 1.5 AS amount, DATE '2024-01-01' + (g % 365) AS day FROM generate_series(1, ${ROWS}) g`,
  SQLite: `WITH RECURSIVE c(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM c WHERE id < ${ROWS}) SELECT id, 'row ' || id AS label, id * 1.5 AS amount, date('2024-01-01', '+' || (id % 365) || ' days') AS day FROM c`,
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const pg = await freshDatabase('pg', 'tablo_bench_sqlclient');
const tablo = await startTablo();
const browser = await launchBrowser();
try {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(`${tablo.url}/#/user/authentication/signup`);
  await page.getByLabel('E-mail').fill('sql-bench@example.com');
  await page.getByLabel('Password').fill('benchmark123');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/#\/projects/);
  const create = (title: string, db: unknown) =>
    page.evaluate(async ({ title, db }) => {
      const res = await fetch('/dashboard?q=sqlOp_projectCreateByWeb', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ api: 'projectCreateByWeb', args: { title, db } }),
      });
      return (await res.json()).id as string;
    }, { title, db });
  await Bun.write(`${tablo.dataDir}/bench-sql.sqlite`, '');
  const targets = {
    PostgreSQL: await create('Bench SQL PG', { client: 'pg', connection: pg.connection }),
    SQLite: await create('Bench SQL SQLite', { client: 'sqlite', connection: { filename: 'bench-sql.sqlite' } }),
  };
  for (const [engine, id] of Object.entries(targets)) {
    await page.goto(`${tablo.url}/#/nc/${id}?name=sqlClient&dbalias=db&type=panel`);
    await page.reload();
    await page.getByRole('tab', { name: 'Query 1' }).waitFor();
    await page.locator('.sqlc-editor .cm-content').click();
    await page.keyboard.insertText(QUERIES[engine as keyof typeof QUERIES]);
    const first: number[] = [];
    const server: number[] = [];
    const scroll: number[] = [];
    const all: number[] = [];
    let domRows = 0;
    let domRowsAfter = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const answered = page.waitForResponse((r) => r.url().includes('sqlOp_rawSqlRun'));
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const res = await answered;
      await page.getByRole('gridcell', { name: 'row 1', exact: true }).waitFor();
      first.push(performance.now() - t0);
      server.push(Number(((await res.json()) as { ms: number }).ms));
      domRows = await page.locator('.sqlr-row').count();
      await page.getByRole('tab', { name: `Result 1 · ${ROWS.toLocaleString('en')} rows` }).waitFor({ timeout: 60_000 });
      all.push(performance.now() - t0);
      const s0 = performance.now();
      await page.locator('.sqlr-grid').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.getByRole('gridcell', { name: `row ${ROWS}`, exact: true }).waitFor();
      scroll.push(performance.now() - s0);
      domRowsAfter = await page.locator('.sqlr-row').count();
      await page.locator('.sqlr-grid').evaluate((el) => (el.scrollTop = 0));
    }
    console.log(
      `${engine}: ${ROWS.toLocaleString('en')} rows — Run to first rows ${median(first).toFixed(0)} ms (server run ${median(server).toFixed(0)} ms), ` +
        `all rows read ${median(all).toFixed(0)} ms, rows in the DOM ${domRows} (after scrolling to the end ${domRowsAfter}), scroll to the last row ${median(scroll).toFixed(0)} ms`,
    );
  }
} finally {
  await browser.close();
  await tablo.stop();
  await dropDatabase('pg', 'tablo_bench_sqlclient');
}
