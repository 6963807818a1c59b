/**
 * Two people on two instances sharing a PostgreSQL metadata store (and a data directory), as behind a
 * load balancer: the owner's browser on instance A, the editor's on instance B, both on the Customer
 * table. Each sees the other in the table's head; a cell the owner is editing that the editor changes
 * names the editor; the owner's expanded row follows the editor's change in its History tab and shows
 * the editor's comment, without being opened again; a cell the editor is typing in keeps its text when the
 * owner adds a column before it (and closes, saying so, when its column is removed); a comment the owner
 * makes while B's connection to the store is cut shows in the editor's expanded row once it is back; when the
 * editor's page closes, the owner is alone.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { describeEngines, PG } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { loadChinook } from '../helpers/chinook';

setDefaultTimeout(40_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'collab-instances': ${problem}`);

describeEngines(
  'two people on two instances',
  () => {
    let a: RunningTablo;
    let b: RunningTablo;
    let meta: { url: string; name: string; drop(): Promise<void> };
    /** B's way to the metadata store, which a test cuts. */
    let proxyB: TcpProxy;
    let dataDir = '';
    let browser: Browser;
    let owner: Page;
    let editorContext: BrowserContext;
    let editor: Page;
    let projectId = '';
    let ownerToken = '';

    const post = async (url: string, path: string, body: unknown, token = ownerToken) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body) });
      return (await res.json().catch(() => null)) as any;
    };
    const signIn = async (url: string, email: string) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${url}/#/user/authentication/signin`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill('password123');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/#\/projects/);
      await page.goto(`${url}/#/nc/${projectId}`);
      await page.locator('.tree').getByRole('button', { name: 'Customer', exact: true }).click();
      await page.getByRole('gridcell', { name: 'Luís', exact: true }).first().waitFor();
      return { context, page };
    };
    const alsoHere = (page: Page) => page.getByRole('group', { name: /^Also here:/ });

    beforeAll(async () => {
      if (problem) throw new Error(problem);
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-e2e-collab-'));
      meta = await freshMetaDb('e2e_collab');
      const env = { NC_DATA_DIR: dataDir, NC_DB: meta.url, NC_LOG_REQUESTS: 'false', NC_AUTH_JWT_SECRET: 'collab-instances-secret-0123456789abcdef' };
      // One after the other: the first creates the shared keys and applies the migrations.
      a = await startTablo(env);
      proxyB = startTcpProxy(PG.host, PG.port);
      b = await startTablo({ ...env, NC_DB: `postgres://${PG.user}@127.0.0.1:${proxyB.port}/${meta.name}` });
      ownerToken = (await post(a.url, '/auth/signup', { email: 'owner@example.com', password: 'password123' }, '')).token;
      const cfg = await loadChinook('sqlite', 'tablo_t_e2e_collab', { fresh: true });
      await Bun.write(join(dataDir, 'chinook.sqlite'), Bun.file(cfg.connection.filename!));
      projectId = (await post(a.url, '/dashboard?q=sqlOp_projectCreateByWeb', { api: 'projectCreateByWeb', args: { title: 'Music', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } } })).id;
      const invite = await post(a.url, '/admin', { email: 'ada.lovelace@example.com', roles: 'editor', project_id: projectId });
      await post(b.url, '/auth/signup', { email: 'ada.lovelace@example.com', password: 'password123', token: String(invite.invite_url).split('/signup/')[1] }, '');
      browser = await launchBrowser();
      owner = (await signIn(a.url, 'owner@example.com')).page;
      ({ context: editorContext, page: editor } = await signIn(b.url, 'ada.lovelace@example.com'));
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      proxyB?.down();
      await meta?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    browserTest('each sees the other on the table, though another instance serves them', () => owner, async () => {
      await alsoHere(owner).getByRole('img', { name: 'ada.lovelace@example.com' }).waitFor();
      await alsoHere(editor).getByRole('img', { name: 'owner@example.com' }).waitFor();
      await shot(owner, 'collab-instances-owner-sees-editor');
    });

    browserTest("a cell the owner is editing that the editor changes on the other instance names the editor", () => owner, async () => {
      await owner.getByRole('gridcell', { name: 'Leonie', exact: true }).first().dblclick();
      const input = owner.getByLabel('Edit FirstName');
      await input.fill('Leonora');
      await editor.getByRole('gridcell', { name: 'Leonie', exact: true }).first().dblclick();
      await editor.getByLabel('Edit FirstName').fill('Leni');
      await editor.getByLabel('Edit FirstName').press('Enter');
      await owner.getByRole('alert').filter({ hasText: 'Changed by ada.lovelace@example.com while you edit (now: Leni)' }).waitFor();
      expect(await input.inputValue()).toBe('Leonora');
      await shot(owner, 'collab-instances-changed-while-editing');
      await input.press('Escape');
      await owner.getByRole('gridcell', { name: 'Leni', exact: true }).first().waitFor();
    });

    browserTest("the owner's expanded row shows the editor's change in its history and the editor's comment as they happen", () => owner, async () => {
      const row = owner.getByRole('row').filter({ has: owner.getByRole('gridcell', { name: 'Montréal', exact: true }) }).first();
      await row.hover();
      await row.getByRole('button', { name: /^Expand row/ }).click();
      const expanded = owner.getByRole('dialog', { name: 'Expanded row' });
      await expanded.waitFor();
      await expanded.getByRole('tab', { name: 'History' }).click();
      const history = expanded.getByRole('list', { name: 'History' });
      await history.getByText('No changes recorded.').waitFor();

      // The editor changes the last name in their grid on B.
      await editor.getByRole('gridcell', { name: 'Tremblay', exact: true }).dblclick();
      await editor.getByLabel('Edit LastName').fill('Tremblay-Lovelace');
      await editor.getByLabel('Edit LastName').press('Enter');
      await history.getByText('ada.lovelace@example.com changed LastName from Tremblay to Tremblay-Lovelace').waitFor();
      expect(await history.getByText('No changes recorded.').count()).toBe(0);

      // The editor comments on the same row from their expanded row on B.
      const editorRow = editor.getByRole('row').filter({ has: editor.getByRole('gridcell', { name: 'Montréal', exact: true }) }).first();
      await editorRow.hover();
      await editorRow.getByRole('button', { name: /^Expand row/ }).click();
      const editorExpanded = editor.getByRole('dialog', { name: 'Expanded row' });
      await editorExpanded.getByLabel('New comment').fill('Called them: new company name');
      await editorExpanded.getByRole('button', { name: 'Comment', exact: true }).click();
      await expanded.getByRole('tab', { name: 'Comments (1)' }).click();
      await expanded.getByText('Called them: new company name').waitFor();
      await shot(owner, 'collab-instances-expanded-row-follows');
      await editorExpanded.getByRole('button', { name: 'Close' }).click();
      await expanded.getByRole('button', { name: 'Close' }).click();
      await expanded.waitFor({ state: 'detached' });
    });

    browserTest('a cell the editor is typing in keeps its text when the owner adds a column before it, and closes, saying so, when its column is removed', () => editor, async () => {
      const op = async (api: string, args: unknown) => {
        const res = await post(a.url, `/dashboard?q=sqlOpPlus_${api}`, { api, project_id: projectId, args });
        expect(res?.msg).toBeUndefined();
      };
      await editor.getByRole('gridcell', { name: 'Gonçalves', exact: true }).dblclick();
      const input = editor.getByLabel('Edit LastName');
      await input.fill('Gonçalves-Silva');
      // The owner adds a column on A and shows it second, before the one being edited on B.
      await op('columnAdd', { tn: 'Customer', column: { cn: 'Nickname', uidt: 'SingleLineText' } });
      const columns = (await post(a.url, '/dashboard?q=sqlOp_tableMeta', { api: 'tableMeta', project_id: projectId, args: { tn: 'Customer' } })).columns.map((c: { cn: string }) => c.cn);
      await op('columnReorder', { tn: 'Customer', order: ['CustomerId', 'Nickname', ...columns.filter((c: string) => c !== 'CustomerId' && c !== 'Nickname')] });
      const headers = async () => (await editor.getByRole('columnheader').allTextContents()).map((h) => h.trim().split(/\s/)[0]);
      await editor.waitForFunction(() => [...document.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent?.trim().split(/\s/)[0])[1] === 'Nickname');
      expect((await headers()).slice(0, 4)).toEqual(['CustomerId', 'Nickname', 'FirstName', 'LastName']);
      // The editor is still on LastName with the typed text; Enter saves it.
      expect(await input.inputValue()).toBe('Gonçalves-Silva');
      await shot(editor, 'collab-instances-typing-kept-after-column-added');
      await input.press('Enter');
      await editor.getByRole('gridcell', { name: 'Gonçalves-Silva', exact: true }).waitFor();
      const row1 = await (await fetch(`${a.url}/nc/${projectId}/api/v1/Customer/1`, { headers: { 'xc-auth': ownerToken } })).json() as Record<string, unknown>;
      expect(row1.LastName).toBe('Gonçalves-Silva');

      // Typing in the new column; the owner removes it: the editor closes and says why.
      await editor.getByRole('gridcell', { name: 'Gonçalves-Silva', exact: true }).click();
      await editor.keyboard.press('ArrowLeft');
      await editor.keyboard.press('ArrowLeft');
      await editor.keyboard.press('L');
      const nickname = editor.getByLabel('Edit Nickname');
      await nickname.waitFor();
      await op('columnDelete', { tn: 'Customer', cn: 'Nickname' });
      await editor.getByText('The column Nickname you were editing was renamed or removed by someone else').waitFor();
      await nickname.waitFor({ state: 'detached' });
      await shot(editor, 'collab-instances-edited-column-removed');
      // Three schema changes, each read again by both pages on two instances: more than the suite's default on a busy machine.
    }, 90_000);

    browserTest("a comment made on A while B's connection to the store is cut shows in the editor's expanded row once it is back", () => editor, async () => {
      const row = editor.getByRole('row').filter({ has: editor.getByRole('gridcell', { name: 'František', exact: true }) }).first();
      await row.hover();
      await row.getByRole('button', { name: /^Expand row/ }).click();
      const expanded = editor.getByRole('dialog', { name: 'Expanded row' });
      await expanded.getByRole('tab', { name: 'Comments' }).waitFor();
      // B hears nothing of the comment: it is told to read again when its store is back.
      proxyB.down();
      const made = await post(a.url, '/dashboard?q=sqlOp_commentCreate', { api: 'commentCreate', project_id: projectId, args: { tn: 'Customer', pk: '5', body: 'Said while B was away' } });
      expect(made?.msg).toBeUndefined();
      proxyB.up();
      await expanded.getByText('Said while B was away').waitFor();
      await expanded.getByRole('tab', { name: 'Comments (1)' }).waitFor();
      await shot(editor, 'collab-instances-comment-after-store-cut');
      await expanded.getByRole('button', { name: 'Close' }).click();
      await expanded.waitFor({ state: 'detached' });
    });

    browserTest("when the editor's page closes, the owner is alone on the table again", () => owner, async () => {
      const ada = alsoHere(owner).getByRole('img', { name: 'ada.lovelace@example.com' });
      await ada.waitFor();
      await editorContext.close();
      await ada.waitFor({ state: 'detached' });
      expect(await alsoHere(owner).count()).toBe(0);
    });
  },
  ['pg'],
);
