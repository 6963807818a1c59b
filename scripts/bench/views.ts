/**
 * Saved-views benchmark (not a test): a kanban and a calendar over a 1,000,000-row table, opened in
 * the dashboard with headless Chromium against the built binary, on PostgreSQL and SQLite. It
 * reports the time from navigation to the first card / entry on screen, and how many rows the
 * browser read (the sum of every list answer of that table) against the table's size.
 *
 *   bun run build && bun scripts/bench/views.ts
 *
 * The table `shelf_book` (id, title, shelf SingleSelect of four choices or empty, published Date
 * over 10,000 days, so some 100 rows a day) is made through Tablo's tableCreate, then filled from
 * the bench's `book` table with SQL (scripts/bench/dataset.ts loads that once).
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import postgres from 'postgres';
import { Database } from 'bun:sqlite';
import type { Page } from 'playwright-core';
import { launchBrowser, startTablo } from '../../test/e2e/helpers';
import { BOOKS, loadPostgres, loadSqlite } from './dataset';

const WORK = '/tmp/tablo-bench';
const TABLE = 'shelf_book';
const SHELVES = ['Fiction', 'Science', 'History', 'Poetry'];
/** The month the calendar shows (inside the 10,000 days of `published`). */
const MONTH = '2021-06-15';

mkdirSync(join(WORK, 'data'), { recursive: true });
const pgConn = await loadPostgres();
loadSqlite(join(WORK, 'data', 'bench.sqlite'));

/** Fills shelf_book from book: every fifth row has no shelf (the Uncategorized lane). */
const fillSql = (engine: 'pg' | 'sqlite') => `INSERT INTO ${TABLE} (id, title, shelf, published)
  SELECT id, title, CASE id % 5 ${SHELVES.map((s, i) => `WHEN ${i + 1} THEN '${s}'`).join(' ')} ELSE NULL END,
  ${engine === 'pg' ? `date '1995-01-01' + (id % 10000)` : `date('1995-01-01', '+' || (id % 10000) || ' days')`} FROM book`;
const indexSql = [`CREATE INDEX ${TABLE}_shelf ON ${TABLE} (shelf)`, `CREATE INDEX ${TABLE}_published ON ${TABLE} (published)`];

const tablo = await startTablo();
const browser = await launchBrowser();
try {
  const page = await (await browser.newContext({ viewport: { width: 1500, height: 900 } })).newPage();
  await page.goto(`${tablo.url}/#/user/authentication/signup`);
  await page.getByLabel('E-mail').fill('views-bench@example.com');
  await page.getByLabel('Password').fill('benchmark123');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/#\/projects/);
  await Bun.write(join(tablo.dataDir, 'bench.sqlite'), Bun.file(join(WORK, 'data', 'bench.sqlite')));
  const op = (api: string, body: Record<string, unknown>, plus = false) =>
    page.evaluate(async ({ api, body, plus }) => {
      const res = await fetch(`/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ api, dbAlias: 'db', ...body }),
      });
      const answer = await res.json();
      if (!res.ok) throw new Error(`${api}: ${JSON.stringify(answer)}`);
      return answer;
    }, { api, body, plus });

  // A clean shelf_book on PostgreSQL (the SQLite copy above is fresh each run).
  const sql = postgres({ ...pgConn, max: 1, onnotice: () => {} });
  await sql.unsafe(`DROP TABLE IF EXISTS ${TABLE}`);
  const targets: Record<string, { id: string; fill: () => Promise<void> }> = {
    PostgreSQL: {
      id: (await op('projectCreateByWeb', { args: { title: 'Views PG', db: { client: 'pg', connection: pgConn } } })).id,
      fill: async () => {
        await sql.unsafe(fillSql('pg'));
        for (const s of indexSql) await sql.unsafe(s);
        await sql.unsafe(`ANALYZE ${TABLE}`);
      },
    },
    SQLite: {
      id: (await op('projectCreateByWeb', { args: { title: 'Views SQLite', db: { client: 'sqlite', connection: { filename: 'bench.sqlite' } } } })).id,
      fill: async () => {
        const db = new Database(join(tablo.dataDir, 'bench.sqlite'));
        db.exec(fillSql('sqlite'));
        for (const s of indexSql) db.exec(s);
        db.exec(`ANALYZE ${TABLE}`);
        db.close();
      },
    },
  };

  for (const [engine, target] of Object.entries(targets)) {
    const project_id = target.id;
    await op('tableCreate', {
      project_id,
      args: {
        tn: TABLE,
        columns: [
          { cn: 'id', uidt: 'Number', pk: true },
          { cn: 'title', uidt: 'SingleLineText' },
          { cn: 'shelf', uidt: 'SingleSelect', meta: { options: SHELVES.map((title) => ({ title })) } },
          { cn: 'published', uidt: 'Date' },
        ],
      },
    }, true);
    const f0 = performance.now();
    await target.fill();
    console.log(`${engine}: ${TABLE} filled with ${BOOKS.toLocaleString('en')} rows in ${((performance.now() - f0) / 1000).toFixed(1)} s`);
    const kanban = await op('xcVirtualTableCreate', { project_id, args: { tn: TABLE, title: 'Shelves', type: 'kanban', query_params: { groupBy: 'shelf' } } });
    const calendar = await op('xcVirtualTableCreate', { project_id, args: { tn: TABLE, title: 'Published', type: 'calendar', query_params: { dateColumn: 'published' } } });
    const open = async (viewId: string, ready: (p: Page) => Promise<void>, before?: () => Promise<void>) => {
      await page.goto(`${tablo.url}/#/projects`);
      await before?.();
      let rows = 0;
      let calls = 0;
      const onResponse = async (res: { url(): string; request(): { method(): string }; json(): Promise<unknown> }) => {
        const u = new URL(res.url());
        if (res.request().method() !== 'GET' || !/\/api\/v1\/ShelfBook$/i.test(u.pathname)) return;
        calls++;
        const body = await res.json().catch(() => []);
        if (Array.isArray(body)) rows += body.length;
        if (process.env.BENCH_VERBOSE) console.log(`  GET ${decodeURIComponent(u.search)} -> ${Array.isArray(body) ? body.length : '?'} rows`);
      };
      page.on('response', onResponse);
      const t0 = performance.now();
      await page.goto(`${tablo.url}/#/nc/${project_id}?name=${TABLE}&dbalias=db&type=table&view=${viewId}`);
      await ready(page);
      const firstPaint = performance.now() - t0;
      await settled(page);
      const all = performance.now() - t0;
      page.off('response', onResponse);
      return { firstPaint, settled: all, rows, calls };
    };
    /** Every lane has its count and first page; the calendar has read its range. */
    const settled = async (p: Page) => {
      await p.waitForFunction(() => {
        const lanes = [...document.querySelectorAll('.kanban-lane')];
        const cal = document.querySelector('[data-testid="calendar-status"]');
        if (cal) return !/Loading/.test(cal.textContent ?? '');
        return lanes.length > 0 && lanes.every((l) => !/…/.test(l.querySelector('.lane-count')?.textContent ?? '…') && !/Loading/.test(l.querySelector('.lane-end')?.textContent ?? ''));
      }, undefined, { timeout: 60_000 });
      await p.waitForTimeout(300);
    };
    const k = await open(kanban.id, async (p) => {
      await p.getByRole('listitem', { name: 'Lane Fiction' }).getByRole('article').first().waitFor();
    });
    const counts = await page.locator('.lane-count').allTextContents();
    console.log(`${engine} kanban: first cards ${k.firstPaint.toFixed(0)} ms, all lanes ${k.settled.toFixed(0)} ms; ${k.rows} rows read in ${k.calls} pages of ${BOOKS.toLocaleString('en')} (lane counts ${counts.join(' / ')})`);
    await page.screenshot({ path: join(WORK, `views-kanban-${engine}.png`) });
    const c = await open(
      calendar.id,
      async (p) => {
        await p.locator('.cal-entry').first().waitFor();
      },
      () => page.evaluate(([id, day]) => sessionStorage.setItem(`tablo.calendar.${id}`, day), [calendar.id, MONTH] as const),
    );
    const status = await page.getByTestId('calendar-status').textContent();
    console.log(`${engine} calendar (month of ${MONTH.slice(0, 7)}): first entries ${c.firstPaint.toFixed(0)} ms, whole range ${c.settled.toFixed(0)} ms; ${c.rows} rows read in ${c.calls} pages (${status})`);
    await page.screenshot({ path: join(WORK, `views-calendar-${engine}.png`) });
  }
  await sql.unsafe(`DROP TABLE IF EXISTS ${TABLE}`);
  await sql.end();
} finally {
  await browser.close();
  await tablo.stop();
}
