/**
 * Grid benchmark (not a test): opens the 1,000,000-row `book` table of scripts/bench (PostgreSQL
 * and SQLite) in the dashboard with headless Chromium and measures the time to the first rows,
 * the time to the count, and how long each scroll takes until the rows in view are there.
 *
 *   bun scripts/bench/grid.ts     (run scripts/bench/rest.ts once first: it loads the data)
 */
import { join } from 'node:path';
import { launchBrowser, startTablo } from '../../test/e2e/helpers';

const WORK = '/tmp/tablo-bench';
const tablo = await startTablo();
const browser = await launchBrowser();
try {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(`${tablo.url}/#/user/authentication/signup`);
  await page.getByLabel('E-mail').fill('grid-bench@example.com');
  await page.getByLabel('Password').fill('benchmark123');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/#\/projects/);
  await Bun.write(join(tablo.dataDir, 'bench.sqlite'), Bun.file(join(WORK, 'data', 'bench.sqlite')));
  const create = (title: string, db: unknown) =>
    page.evaluate(async ({ title, db }) => {
      const res = await fetch('/dashboard?q=sqlOp_projectCreateByWeb', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ api: 'projectCreateByWeb', args: { title, db } }),
      });
      return (await res.json()).id as string;
    }, { title, db });
  const targets = {
    PostgreSQL: await create('Bench PG', { client: 'pg', connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'tablo_bench' } }),
    SQLite: await create('Bench SQLite', { client: 'sqlite', connection: { filename: 'bench.sqlite' } }),
  };
  for (const [engine, id] of Object.entries(targets)) {
    const t0 = performance.now();
    await page.goto(`${tablo.url}/#/nc/${id}?name=Book&dbalias=db&type=table`);
    await page.getByRole('gridcell', { name: 'Book 1', exact: true }).first().waitFor();
    const firstRows = performance.now() - t0;
    await page.getByTestId('row-count').getByText('1000000 rows').waitFor();
    const count = performance.now() - t0;
    const scrolls: number[] = [];
    for (const row of [5_000, 250_000, 999_950]) {
      const s0 = performance.now();
      // The bar is scaled past some 470,000 rows: scroll to the row's share of it.
      await page.locator('.grid').evaluate((el, share) => (el.scrollTop = share * (el.scrollHeight - el.clientHeight)), row / 1_000_000);
      await page.getByRole('gridcell', { name: `Book ${row + 1}`, exact: true }).first().waitFor();
      scrolls.push(performance.now() - s0);
    }
    console.log(`${engine}: first rows ${firstRows.toFixed(0)} ms, count ${count.toFixed(0)} ms, scroll to rows 5,000 / 250,000 / 999,950: ${scrolls.map((s) => s.toFixed(0)).join(' / ')} ms`);
  }
} finally {
  await browser.close();
  await tablo.stop();
}
