/**
 * Set-up shared by the saved-view browser tests: a signed-up owner, a project over a copy of the
 * Chinook SQLite file in the binary's data directory, dashboard calls and REST calls made from the
 * page with its own session.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loadChinook } from '../helpers/engines';
import type { RunningTablo } from './helpers';

/** Runs a dashboard operation from the page (`plus`: a schema change); answers status and body. */
export function opInPage(page: Page, api: string, body: { project_id?: string; args?: unknown; plus?: boolean } = {}): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([api, body]) => {
      const res = await fetch(`/dashboard?q=${body.plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ api, project_id: body.project_id, dbAlias: 'db', args: body.args ?? {} }),
      });
      return { status: res.status, body: await res.json() };
    },
    [api, body] as const,
  );
}

/** A REST call of the project from the page: method, path after /api/v1/, JSON body. */
export function restInPage(page: Page, projectId: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([projectId, method, path, body]) => {
      const res = await fetch(`/nc/${projectId}/api/v1/${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    [projectId, method, path, body] as const,
  );
}

/** A project over a fresh copy of Chinook (SQLite) in the binary's data directory; answers its id. */
export async function chinookProject(page: Page, tablo: RunningTablo, title: string, copyName: string): Promise<string> {
  const cfg = await loadChinook('sqlite', copyName);
  const file = `${copyName}.sqlite`;
  await Bun.write(join(tablo.dataDir, file), Bun.file(cfg.connection.filename!));
  const made = await opInPage(page, 'projectCreateByWeb', { args: { title, db: { client: 'sqlite', connection: { filename: file } } } });
  if (made.status !== 200) throw new Error(`project not made: ${JSON.stringify(made.body)}`);
  return made.body.id as string;
}

/** Adds a column through the dashboard's schema change; throws with the server's msg when refused. */
export async function addColumn(page: Page, projectId: string, tn: string, column: Record<string, unknown>): Promise<void> {
  const r = await opInPage(page, 'columnAdd', { project_id: projectId, plus: true, args: { tn, column } });
  if (r.status !== 200) throw new Error(`columnAdd ${tn}.${String(column.cn)}: ${JSON.stringify(r.body)}`);
}

/** The saved views of a table as the server keeps them. */
export async function listViews(page: Page, projectId: string, tn: string): Promise<{ id: string; title: string; type: string; query_params: any }[]> {
  return (await opInPage(page, 'xcVirtualTableList', { project_id: projectId, args: { tn } })).body.data.list;
}

/** Asks `read` again (every 100 ms, up to 10 s) until it answers `want`; answers the last value. */
export async function until<T>(read: () => Promise<T>, want: T, ms = 10_000): Promise<T> {
  let last = await read();
  for (const end = Date.now() + ms; last !== want && Date.now() < end; last = await read()) await Bun.sleep(100);
  return last;
}

/** Shows a day in the calendar through its date picker: segments typed month, day, year (English order). */
export async function goToDate(page: Page, day: string): Promise<void> {
  const [year, month, date] = day.split('-') as [string, string, string];
  const picker = page.getByRole('group', { name: 'Go to date' });
  await picker.getByRole('spinbutton', { name: /month/i }).click();
  await page.keyboard.type(month);
  await picker.getByRole('spinbutton', { name: /day/i }).click();
  await page.keyboard.type(date);
  await picker.getByRole('spinbutton', { name: /year/i }).click();
  await page.keyboard.type(year);
  await page.keyboard.press('Tab');
}
