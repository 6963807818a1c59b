/**
 * Webhooks and cron jobs in the browser: the owner opens a table's Webhooks from the tree menu,
 * creates a url hook with a condition, inserts a row and sees the delivery in the hook's log (a
 * receiver started by the test on 127.0.0.1 gets it); then opens Cron Jobs from the top bar,
 * sees the next run times of a pattern, creates a job with headers, runs it now and reads its log;
 * a webhook being written is not dropped without asking; the audit log names a data change's row.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { startReceiver, waitFor } from '../helpers/receiver';
import { until } from './views-helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'hooks': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('webhooks and cron jobs in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const rx = startReceiver();

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo({ NC_API_CLIENT_ALLOW_PRIVATE: '1' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'owner@example.com');
    projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Shop' } })).body.id;
    const made = await dashboardCallInPage(page, 'tableCreate', { project_id: projectId, args: { tn: 'orders', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }, { cn: 'qty', uidt: 'Number' }] } });
    expect(made.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    rx.stop();
  });

  browserTest('create a hook from the table menu, insert a row, see the delivery in its log', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('button', { name: 'Actions of table Orders' }).click();
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Webhooks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Webhooks of Orders' });
    // A refused creation is told as such (its red toast once read 'Webhook created: ...').
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const toasts = page.getByRole('region', { name: /Messages/ });
    await toasts.getByText(/^Create webhook: .*title is required/).waitFor();
    expect(await toasts.getByText('Webhook created').count()).toBe(0);
    await dialog.getByLabel('Title').fill('Big orders');
    await dialog.getByRole('button', { name: '+ Condition' }).click();
    await dialog.getByLabel('Condition 1 column').selectOption('Qty');
    await dialog.getByLabel('Condition 1 operator').selectOption('gt');
    await dialog.getByLabel('Condition 1 value').fill('10');
    await dialog.getByLabel('URL').fill(rx.url('/orders'));
    await dialog.getByLabel('Body template').fill('{"order": "{{ data.Title }}", "qty": {{ data.Qty }}}');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByTestId('hook-secret').waitFor();
    // The list names the action as the Action menu does (it once read the raw type 'url').
    await dialog.getByRole('button', { name: /^Big orders/ }).getByText('insert · HTTP call (URL)').waitFor();
    await shot(page, 'hooks-editor');
    // One row below the condition, one above it: only the second is delivered.
    for (const row of [{ Title: 'small', Qty: 2 }, { Title: 'big', Qty: 50 }]) {
      const status = await page.evaluate(async ([pid, body]) => {
        const res = await fetch(`/nc/${pid}/api/v1/Orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify(body) });
        return res.status;
      }, [projectId, row] as const);
      expect(status).toBe(200);
    }
    const log = dialog.getByRole('table', { name: 'Delivery log' });
    await waitFor('the delivery in the log', async () => {
      await dialog.getByRole('button', { name: 'Refresh' }).click();
      return (await log.getByText('success').count()) === 1;
    });
    expect(rx.at('/orders').map((r) => r.json)).toEqual([{ order: 'big', qty: 50 }]);
    await shot(page, 'hooks-delivery-log');
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 60_000);

  browserTest('the Crons button opens Cron Jobs: next run times, create, run now, log', () => page, async () => {
    await page.getByRole('button', { name: 'Crons' }).click();
    const panel = page.getByRole('region', { name: 'Cron Jobs' });
    await panel.getByRole('button', { name: '+ New cron job' }).click();
    await panel.getByLabel('Job title').fill('Nightly ping');
    await panel.getByLabel('Pattern').fill('61 * * * *');
    await panel.getByText("Invalid cron pattern '61 * * * *'").waitFor();
    // A pattern with seconds shows its next runs to the second (five different times, not one minute five times).
    await panel.getByLabel('Pattern').fill('*/10 * * * * *');
    expect(await until(async () => new Set(await panel.getByLabel('Next run times').locator('.chip').allInnerTexts()).size, 5)).toBe(5);
    expect(await panel.getByLabel('Next run times').locator('.chip').first().innerText()).toMatch(/\d:\d\d:\d\d/);
    await panel.getByLabel('Pattern').fill('0 3 * * *');
    await panel.getByLabel('Time zone').fill('Asia/Tokyo');
    // The next runs are shown in the job's time zone, which is named: 3:00 AM in Tokyo, whatever the browser's zone.
    const runsAt3 = async (zone: string) => {
      const text = await panel.getByLabel('Next run times').innerText();
      const runs = await panel.getByLabel('Next run times').locator('.chip').allInnerTexts();
      return text.includes(zone) && runs.length === 5 && runs.every((r) => /\b3:00\sAM\b/.test(r));
    };
    expect(await until(() => runsAt3('Asia/Tokyo'), true)).toBe(true);
    await panel.getByLabel('Time zone').fill('Europe/Berlin');
    expect(await until(() => runsAt3('Europe/Berlin'), true)).toBe(true);
    await panel.getByLabel('Job URL').fill(rx.url('/nightly'));
    // An endpoint that wants a key gets it in a header.
    await panel.getByLabel('Job headers').fill('Authorization: Bearer nightly-key\nX-Source: tablo');
    // Switching the action to SQL and back keeps what was typed for each (the URL was cleared).
    const action = panel.getByLabel('Job action');
    await action.selectOption({ label: 'SQL statement' });
    await panel.getByLabel('Job SQL').fill('SELECT 1');
    await action.selectOption({ label: 'HTTP call' });
    expect(await panel.getByLabel('Job URL').inputValue()).toBe(rx.url('/nightly'));
    expect(await panel.getByLabel('Job headers').inputValue()).toBe('Authorization: Bearer nightly-key\nX-Source: tablo');
    await action.selectOption({ label: 'SQL statement' });
    expect(await panel.getByLabel('Job SQL').inputValue()).toBe('SELECT 1');
    await action.selectOption({ label: 'HTTP call' });
    await shot(page, 'crons-form');
    await panel.getByRole('button', { name: 'Create job' }).click();
    const jobs = panel.getByRole('table', { name: 'Cron jobs' });
    await jobs.getByText('Nightly ping').waitFor();
    await jobs.getByRole('button', { name: 'Log' }).click();
    await jobs.getByRole('button', { name: 'Run now' }).click();
    await panel.getByRole('table', { name: 'Run log' }).getByText('success').waitFor();
    expect(rx.at('/nightly')).toHaveLength(1);
    expect(rx.at('/nightly')[0]!.headers.get('authorization')).toBe('Bearer nightly-key');
    expect(rx.at('/nightly')[0]!.headers.get('x-source')).toBe('tablo');
    // A job with seconds in its pattern shows its next run to the second in the list too (the minute only, before).
    await panel.getByRole('button', { name: '+ New cron job' }).click();
    await panel.getByLabel('Job title').fill('New year second');
    await panel.getByLabel('Pattern').fill('30 0 0 1 1 *');
    await panel.getByLabel('Time zone').fill('UTC');
    await panel.getByLabel('Job URL').fill(rx.url('/new-year'));
    await panel.getByRole('button', { name: 'Create job' }).click();
    const yearly = jobs.getByRole('row').filter({ hasText: 'New year second' });
    expect(await yearly.locator('td').nth(3).innerText()).toMatch(/\d:\d\d:30/);
    await yearly.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: "Delete the cron job 'New year second'?" }).getByRole('button', { name: 'Delete' }).click();
    await yearly.waitFor({ state: 'detached' });
    // Editing the job shows its header values masked (they carry keys), and in full on purpose.
    await jobs.getByRole('button', { name: 'Edit' }).click();
    expect(await panel.getByLabel('Job headers').inputValue()).toBe('Authorization: ••••-key\nX-Source: ••••');
    await panel.getByText(/^Values are hidden/).waitFor();
    await shot(page, 'crons-headers-masked');
    await panel.getByRole('button', { name: 'Show values' }).click();
    await until(() => panel.getByLabel('Job headers').inputValue(), 'Authorization: Bearer nightly-key\nX-Source: tablo');
    expect(await panel.getByLabel('Job headers').inputValue()).toBe('Authorization: Bearer nightly-key\nX-Source: tablo');
    await panel.getByRole('button', { name: 'Cancel' }).click();
    // A run's start is shown to the second.
    expect(await panel.getByRole('table', { name: 'Run log' }).locator('tbody td').first().innerText()).toMatch(/\d:\d\d:\d\d/);
    await shot(page, 'crons-tab');
  }, 60_000);

  browserTest('on a narrow screen the jobs table scrolls sideways to its last buttons', () => page, async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    try {
      const panel = page.getByRole('region', { name: 'Cron Jobs' });
      const del = panel.getByRole('table', { name: 'Cron jobs' }).getByRole('button', { name: 'Delete' });
      await del.waitFor();
      // The user scrolls sideways over the table (shift + wheel); Delete then lies inside the tab.
      await panel.getByRole('table', { name: 'Cron jobs' }).hover();
      const inside = async () => {
        const [b, tab] = await Promise.all([del.boundingBox(), page.locator('.tab-content').boundingBox()]);
        return !!b && !!tab && b.x + b.width <= tab.x + tab.width;
      };
      const seen = await until(async () => {
        if (!(await inside())) await page.mouse.wheel(400, 0);
        return inside();
      }, true);
      expect(seen).toBe(true);
      await shot(page, 'crons-narrow');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  }, 60_000);
  browserTest('deleting a cron job or a webhook asks first; Esc keeps it', () => page, async () => {
    const jobs = page.getByRole('region', { name: 'Cron Jobs' }).getByRole('table', { name: 'Cron jobs' });
    await jobs.getByRole('button', { name: 'Delete' }).click();
    const askJob = page.getByRole('dialog', { name: "Delete the cron job 'Nightly ping'?" });
    await askJob.getByRole('button', { name: 'Cancel' }).click();
    await askJob.waitFor({ state: 'detached' });
    await jobs.getByText('Nightly ping').waitFor();
    await jobs.getByRole('button', { name: 'Delete' }).click();
    await askJob.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('region', { name: 'Cron Jobs' }).getByText(/^No cron jobs yet/).waitFor();
    // The run log of the deleted job goes with it (an empty 'Runs of' and its old runs stayed).
    expect(await page.getByRole('region', { name: 'Cron Jobs' }).getByRole('region', { name: 'Runs' }).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Run log' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Actions of table Orders' }).click();
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Webhooks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Webhooks of Orders' });
    await dialog.getByRole('button', { name: /^Big orders/ }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const askHook = page.getByRole('dialog', { name: "Delete the webhook 'Big orders'?" });
    await askHook.waitFor();
    // Esc closes the question only: the webhook and its dialog stay.
    await page.keyboard.press('Escape');
    await askHook.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: /^Big orders/ }).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await askHook.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: /^Big orders/ }).waitFor({ state: 'detached' });
    expect((await dashboardCallInPage(page, 'xcHookList', { project_id: projectId, args: { tn: 'orders' } })).body.data.list).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 60_000);

  browserTest('header values show masked; saved untouched they keep their value; Show values reveals them, a retyped one replaces it', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('button', { name: 'Actions of table Orders' }).click();
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Webhooks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Webhooks of Orders' });
    await dialog.getByRole('button', { name: '+ New webhook' }).click();
    await dialog.getByLabel('Title').fill('Signed');
    await dialog.getByLabel('URL').fill(rx.url('/signed'));
    await dialog.getByLabel('Headers', { exact: true }).fill('Authorization: Bearer sk_live_abcdef123456');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByTestId('hook-secret').waitFor();
    const hookId = async () => (await dashboardCallInPage(page, 'xcHookList', { project_id: projectId, args: { tn: 'orders' } })).body.data.list.find((h: { title: string }) => h.title.startsWith('Signed')).id as string;
    const stored = async () => (await dashboardCallInPage(page, 'xcHookHeaders', { project_id: projectId, args: { id: await hookId() } })).body.headers;
    // Opened again from the list: the value is masked, its last four characters shown.
    await dialog.getByRole('button', { name: /^Signed/ }).click();
    const headers = dialog.getByLabel('Headers', { exact: true });
    await until(() => headers.inputValue(), 'Authorization: ••••3456');
    expect(await headers.inputValue()).toBe('Authorization: ••••3456');
    await dialog.getByText(/^Values are hidden/).waitFor();
    expect(await dialog.textContent()).not.toContain('sk_live');
    await shot(page, 'hooks-headers-masked');
    // Saved with another title, the header untouched: the stored value stays.
    await dialog.getByLabel('Title').fill('Signed v2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: /^Signed v2/ }).waitFor();
    expect(await stored()).toEqual({ Authorization: 'Bearer sk_live_abcdef123456' });
    // Shown on purpose, then replaced.
    await dialog.getByRole('button', { name: 'Show values' }).click();
    await until(() => headers.inputValue(), 'Authorization: Bearer sk_live_abcdef123456');
    expect(await headers.inputValue()).toBe('Authorization: Bearer sk_live_abcdef123456');
    await headers.fill('Authorization: Bearer rotated_9999');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await until(async () => (await stored()).Authorization, 'Bearer rotated_9999');
    expect(await stored()).toEqual({ Authorization: 'Bearer rotated_9999' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dashboardCallInPage(page, 'xcHookDelete', { project_id: projectId, args: { id: await hookId() } });
  }, 60_000);

  browserTest("a chat hook's webhook URL shows masked; Show values shows it in full, which is no unsaved change", () => page, async () => {
    const url = 'https://hooks.slack.com/services/T000/B000/tok_secret_wxyz';
    const made = await dashboardCallInPage(page, 'xcHookCreate', { project_id: projectId, args: { tn: 'orders', title: 'Team channel', event: 'after.insert', notification: { type: 'slack', webhook_url: url } } });
    expect(made.status).toBe(200);
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('button', { name: 'Actions of table Orders' }).click();
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Webhooks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Webhooks of Orders' });
    await dialog.getByRole('button', { name: /^Team channel/ }).click();
    const field = dialog.getByLabel('Webhook URL', { exact: true });
    await until(() => field.inputValue(), 'https://hooks.slack.com/••••wxyz');
    expect(await dialog.textContent()).not.toContain('tok_secret');
    await dialog.getByText(/^The saved URL is hidden/).waitFor();
    await shot(page, 'hooks-chat-url-masked');
    await dialog.getByRole('button', { name: 'Show values' }).click();
    await until(() => field.inputValue(), url);
    expect(await field.inputValue()).toBe(url);
    await dialog.getByRole('button', { name: 'Show values' }).waitFor({ state: 'detached' });
    // Shown in full is no change: Close does not ask about unsaved changes.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await dashboardCallInPage(page, 'xcHookDelete', { project_id: projectId, args: { id: made.body.id } });
  }, 60_000);

  browserTest('a webhook being written is not dropped by Esc, Close or picking another: it asks first', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('button', { name: 'Actions of table Orders' }).click();
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Webhooks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Webhooks of Orders' });
    await dialog.getByLabel('Title').fill('Half written');
    await dialog.getByLabel('Body template').fill('{"order": "{{ data.Title }}"}');
    const ask = page.getByRole('dialog', { name: 'Discard the changes to this webhook?' });
    // Esc (it closed the dialog and the text was gone): asked; Cancel keeps everything.
    await page.keyboard.press('Escape');
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Half written');
    expect(await dialog.getByLabel('Body template').inputValue()).toBe('{"order": "{{ data.Title }}"}');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await ask.waitFor();
    await shot(page, 'hooks-discard-ask');
    await ask.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Saved, nothing is asked: Close closes.
    await page.getByRole('button', { name: 'Actions of table Orders' }).click();
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Webhooks' }).click();
    await dialog.getByLabel('Title').fill('Kept');
    await dialog.getByLabel('URL').fill(rx.url('/kept'));
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByTestId('hook-secret').waitFor();
    await dialog.getByLabel('Title').fill('Kept, renamed');
    // Picking another (here: a new one) asks too.
    await dialog.getByRole('button', { name: '+ New webhook' }).click();
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Kept, renamed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: /^Kept, renamed/ }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await ask.count()).toBe(0);
    const list = (await dashboardCallInPage(page, 'xcHookList', { project_id: projectId, args: { tn: 'orders' } })).body.data.list;
    expect(list.map((h: { title: string }) => h.title)).toEqual(['Kept, renamed']);
    await dashboardCallInPage(page, 'xcHookDelete', { project_id: projectId, args: { id: list[0].id } });
  });

  browserTest('the audit log says which table, row and values a data change touched', () => page, async () => {
    const status = await page.evaluate(async (pid) => {
      const res = await fetch(`/nc/${pid}/api/v1/Orders/2`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ Qty: 60 }) });
      return res.status;
    }, projectId);
    expect(status).toBe(200);
    await page.goto(`${tablo.url}/#/user/admin`);
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const log = page.getByRole('region', { name: 'Audit log' });
    await log.getByLabel('Event kind').selectOption({ label: 'data' });
    // It read 'update' and 'insert', with no table, row or value.
    const update = log.getByRole('cell', { name: /^Row updated in orders, row 2/ });
    await update.waitFor();
    expect(await update.innerText()).toContain('qty: 50 → 60');
    await log.getByRole('cell', { name: 'Row inserted in orders, row 1', exact: true }).waitFor();
    await shot(page, 'audit-log-data');
    // Webhooks and cron jobs made, changed and deleted are there too, with who did it (they were not written).
    await log.getByLabel('Event kind').selectOption({ label: 'automation' });
    for (const what of ["cron job 'Nightly ping' created", "cron job 'Nightly ping' deleted", "webhook 'Big orders' of 'orders' created", "webhook 'Big orders' of 'orders' deleted", "webhook 'Kept, renamed' of 'orders' changed"]) {
      await log.getByRole('row').filter({ hasText: what }).filter({ hasText: 'owner@example.com' }).first().waitFor();
    }
    expect(new Set((await log.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((k) => k.trim()))).toEqual(new Set(['automation']));
  });
});
