/**
 * Working together in two browsers against the binary: an owner edits a cell, adds and deletes a
 * row, and a viewer's open grid shows each at once without a reload (the grid has no polling: 3 s is
 * a bound for a loaded machine, not the measure), while the viewer's
 * websocket frames never carry the column hidden from them; a change of the saved view follows too; undo and redo of an edit; a comment by
 * a commenter read by the owner in the expanded row, and the owner's own comment edited and deleted there;
 * a grid whose subscription reached the server after its rows were read catching up on a change made between;
 * comments written meanwhile showing in open expanded rows and the grid's counts; a table renamed while open;
 * a table deleted while open.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, holdFirstAnswer, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { loadChinook } from '../helpers/engines';

setDefaultTimeout(40_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'collaboration': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('working together in two browsers', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let owner: Page;
  let viewer: Page;
  let projectId = '';
  const tokens: Record<string, string> = {};
  const viewerFrames: string[] = [];

  const call = async (path: string, body: unknown, token = tokens.owner, method = 'POST') => {
    const res = await fetch(`${tablo.url}${path}`, { method, headers: { 'content-type': 'application/json', 'xc-auth': token! }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
  const op = (api: string, args: unknown) => call(`/dashboard?q=sqlOp_${api}`, { api, project_id: projectId, args });
  const member = async (email: string, role: string) => {
    const invite = await call('/admin', { email, roles: role, project_id: projectId });
    const signup = await call('/auth/signup', { email, password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] });
    return signup.body.token as string;
  };
  const signIn = async (email: string) => {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    return page;
  };
  const openCustomers = async (page: Page) => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.locator('.tree').getByRole('button', { name: 'Customer', exact: true }).click();
    await page.getByRole('gridcell', { name: 'Luís', exact: true }).first().waitFor();
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    tokens.owner = (await call('/auth/signup', { email: 'owner@example.com', password: 'password123' })).body.token;
    const cfg = await loadChinook('sqlite', 'tablo_t_e2e_collab');
    await Bun.write(join(tablo.dataDir, 'chinook.sqlite'), Bun.file(cfg.connection.filename!));
    projectId = (await op('projectCreateByWeb', { title: 'Music', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } })).body.id;
    tokens.viewer = await member('viewer@example.com', 'viewer');
    tokens.commenter = await member('commenter@example.com', 'commenter');
    const cols = (await op('tableMeta', { tn: 'Customer' })).body.columns as { cn: string; _cn: string }[];
    expect((await op('aclSave', { tn: 'Customer', role: 'viewer', rule: { read: cols.filter((c) => c._cn !== 'Phone').map((c) => c.cn), create: false, update: false, delete: false } })).status).toBe(200);
    browser = await launchBrowser();
    owner = await signIn('owner@example.com');
    viewer = await signIn('viewer@example.com');
    viewer.on('websocket', (ws) => {
      if (ws.url().includes('/api/v1/realtime')) ws.on('framereceived', (f) => viewerFrames.push(String(f.payload)));
    });
    await openCustomers(owner);
    await openCustomers(viewer);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a cell edit, an added row and a deleted row appear in the other grid without a reload', () => viewer, async () => {
    // The owner edits a cell in the grid.
    const cell = owner.getByRole('gridcell', { name: 'São José dos Campos', exact: true }).first();
    await cell.dblclick();
    const input = owner.getByLabel('Edit City');
    await input.fill('Recife');
    await input.press('Enter');
    await viewer.getByRole('gridcell', { name: 'Recife', exact: true }).first().waitFor();

    // A row added (through the REST API, as another client would) and deleted.
    expect((await call(`/nc/${projectId}/api/v1/Customer`, { CustomerId: 9001, FirstName: 'Zélia', LastName: 'Nova', Email: 'z@example.com', Phone: '+55 PHONE-SECRET' })).status).toBe(200);
    await viewer.getByTestId('row-count').getByText('60 rows').waitFor();
    expect((await call(`/nc/${projectId}/api/v1/Customer/9001`, {}, tokens.owner, 'DELETE')).status).toBe(200);
    await viewer.getByTestId('row-count').getByText('59 rows').waitFor();
    await shot(viewer, 'collaboration-viewer');

    // The phone number was sent to nobody but those who may read it.
    expect(viewerFrames.length).toBeGreaterThan(0);
    expect(viewerFrames.join('\n')).not.toContain('PHONE-SECRET');
    expect(viewerFrames.join('\n')).not.toContain('"Phone"');
  });

  /** The viewer's third page (closed at the end of its test, so that a failure there leaves the viewer's grid as it is). */
  let late: Page | undefined;
  browserTest('a grid whose rows were read before the server took its subscription catches up once it has: a change made between is not lost', () => late ?? viewer, async () => {
    // A third page of the viewer's, whose subscription to Customer reaches the server late (as on a busy machine).
    late = await signIn('viewer@example.com');
    const held: string[] = [];
    let release = () => {};
    await late!.routeWebSocket(/\/api\/v1\/realtime/, (ws) => {
      const server = ws.connectToServer();
      release = () => held.splice(0).forEach((m) => server.send(m));
      ws.onMessage((m) => {
        if (typeof m === 'string' && m.includes('"subscribe"') && m.includes('"Customer"')) held.push(m);
        else server.send(m);
      });
    });
    try {
      await openCustomers(late);
      expect(held.length).toBeGreaterThan(0);
      // The owner changes a row the grid shows, before the server sends this page Customer's changes.
      expect((await call(`/nc/${projectId}/api/v1/Customer/1`, { FirstName: 'Luísa' }, tokens.owner, 'PUT')).status).toBe(200);
      await viewer.getByRole('gridcell', { name: 'Luísa', exact: true }).first().waitFor();
      expect(await late.getByRole('gridcell', { name: 'Luísa', exact: true }).count()).toBe(0);
      // Once the server confirms the subscription, the grid reads its rows again and shows the change.
      release();
      await late.getByRole('gridcell', { name: 'Luísa', exact: true }).first().waitFor();
    } finally {
      expect((await call(`/nc/${projectId}/api/v1/Customer/1`, { FirstName: 'Luís' }, tokens.owner, 'PUT')).status).toBe(200);
      await late.context().close();
    }
    await viewer.getByRole('gridcell', { name: 'Luís', exact: true }).first().waitFor();
  });

  browserTest('two rows added one after the other: the grid ends on the later read, even when the earlier one answers last', () => viewer, async () => {
    // The count read after the first row (60) is answered after the second row's reads (61): the
    // grid must keep the later count.
    const held = await holdFirstAnswer(viewer, (url) => url.includes('/api/v1/Customer/count'));
    expect((await call(`/nc/${projectId}/api/v1/Customer`, { CustomerId: 9002, FirstName: 'Zeca', LastName: 'Um', Email: 'z1@example.com' })).status).toBe(200);
    await held.readByServer;
    expect((await call(`/nc/${projectId}/api/v1/Customer`, { CustomerId: 9003, FirstName: 'Zuza', LastName: 'Dois', Email: 'z2@example.com' })).status).toBe(200);
    await viewer.getByTestId('row-count').getByText('61 rows').waitFor();
    await held.deliver();
    // The late answer (60) changed nothing.
    await viewer.waitForTimeout(100);
    expect(await viewer.getByTestId('row-count').textContent()).toContain('61 rows');
    for (const id of [9002, 9003]) expect((await call(`/nc/${projectId}/api/v1/Customer/${id}`, {}, tokens.owner, 'DELETE')).status).toBe(200);
    await viewer.getByTestId('row-count').getByText('59 rows').waitFor();
  });

  browserTest('a filter and a hidden field saved in the view by the owner apply in the viewer\'s open grid', () => viewer, async () => {
    const view = (await op('xcVirtualTableList', { tn: 'Customer' })).body.data.list[0] as { id: string; query_params: Record<string, unknown> };
    expect((await op('xcVirtualTableUpdate', { id: view.id, query_params: { ...view.query_params, where: '(Country,eq,Brazil)', fields: [{ cn: 'Company', show: false }] } })).status).toBe(200);
    await viewer.getByTestId('row-count').getByText('5 rows').waitFor();
    await viewer.getByRole('columnheader', { name: /Company/ }).waitFor({ state: 'detached' });
    expect((await op('xcVirtualTableUpdate', { id: view.id, query_params: view.query_params })).status).toBe(200);
    await viewer.getByTestId('row-count').getByText('59 rows').waitFor();
    await viewer.getByRole('columnheader', { name: /Company/ }).waitFor();
  });

  browserTest('undo and redo of the owner\'s own edit', () => owner, async () => {
    await owner.getByRole('gridcell', { name: 'Recife', exact: true }).first().click();
    await owner.keyboard.press('Control+z');
    await owner.getByRole('gridcell', { name: 'São José dos Campos', exact: true }).first().waitFor();
    await viewer.getByRole('gridcell', { name: 'São José dos Campos', exact: true }).first().waitFor();
    await owner.keyboard.press('Control+Shift+z');
    await owner.getByRole('gridcell', { name: 'Recife', exact: true }).first().waitFor();
    // The grid reads its rows again after a redo; let that read finish before the row changes elsewhere.
    await owner.waitForLoadState('networkidle');
    // Someone else changes the row: undo refuses and says why.
    expect((await call(`/nc/${projectId}/api/v1/Customer/1`, { City: 'Olinda' }, tokens.owner, 'PUT')).status).toBe(200);
    await owner.getByRole('gridcell', { name: 'Olinda', exact: true }).first().waitFor();
    await owner.getByRole('gridcell', { name: 'Olinda', exact: true }).first().click();
    await owner.keyboard.press('Control+z');
    await owner.getByText(/The row changed since \(City\)/).waitFor();
    // Someone renames the column meanwhile: the refusal names it as it is called now.
    expect((await op('columnUpdate', { tn: 'Customer', cn: 'City', column: { _cn: 'Town' } })).status).toBe(200);
    await owner.getByRole('columnheader', { name: /^Town/ }).waitFor();
    await owner.getByRole('gridcell', { name: 'Olinda', exact: true }).first().click();
    await owner.keyboard.press('Control+z');
    await owner.getByText(/The row changed since \(Town\)/).waitFor();
    await shot(owner, 'collaboration-undo-renamed-column');
    expect((await op('columnUpdate', { tn: 'Customer', cn: 'City', column: { _cn: 'City' } })).status).toBe(200);
    await owner.getByRole('columnheader', { name: /^City/ }).waitFor();
  });

  browserTest('a comment by a commenter is read by the owner in the expanded row', () => owner, async () => {
    expect((await call(`/dashboard?q=sqlOp_commentCreate`, { api: 'commentCreate', project_id: projectId, args: { tn: 'Customer', pk: '1', body: 'Called her about the invoice' } }, tokens.commenter)).status).toBe(200);
    const link = `https://example.com/${'averylongpathsegment'.repeat(12)}`;
    expect((await call(`/dashboard?q=sqlOp_commentCreate`, { api: 'commentCreate', project_id: projectId, args: { tn: 'Customer', pk: '1', body: link } }, tokens.commenter)).status).toBe(200);
    await owner.getByRole('gridcell', { name: 'Luís', exact: true }).first().hover();
    await owner.getByRole('button', { name: 'Expand row 1', exact: true }).click();
    await owner.getByRole('dialog', { name: 'Expanded row' }).waitFor();
    await owner.getByRole('region', { name: 'Row activity' }).getByText('Called her about the invoice').waitFor();
    // A long address without spaces wraps inside the dialog instead of running past its edge.
    const linkItem = owner.getByRole('region', { name: 'Row activity' }).getByRole('listitem').filter({ hasText: link });
    await linkItem.waitFor();
    expect(await linkItem.evaluate((li) => li.scrollWidth <= li.clientWidth)).toBe(true);
    await owner.getByRole('region', { name: 'Row activity' }).getByRole('tab', { name: 'History' }).click();
    await owner.getByRole('list', { name: 'History' }).getByText(/changed City/).first().waitFor();
    await shot(owner, 'collaboration-expanded-row');
    // The viewer reads the comment too, with no box to add one (viewers do not comment).
    await viewer.getByRole('gridcell', { name: 'Luís', exact: true }).first().hover();
    await viewer.getByRole('button', { name: 'Expand row 1', exact: true }).click();
    await viewer.getByRole('region', { name: 'Row activity' }).getByText('Called her about the invoice').waitFor();
    expect(await viewer.getByRole('textbox', { name: 'New comment' }).count()).toBe(0);
    expect(await viewer.getByRole('region', { name: 'Row activity' }).getByRole('button', { name: /^(Edit|Delete)$/ }).count()).toBe(0);
    // The owner, who may comment, has the box.
    const activity = owner.getByRole('region', { name: 'Row activity' });
    await activity.getByRole('tab', { name: /^Comments/ }).click();
    await owner.getByRole('textbox', { name: 'New comment' }).waitFor();
    // The owner may delete the commenter's comment but not edit it; their own they edit, then delete.
    const theirs = activity.getByRole('listitem').filter({ hasText: 'Called her about the invoice' });
    expect(await theirs.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await theirs.getByRole('button', { name: 'Delete' }).waitFor();
    await owner.getByRole('textbox', { name: 'New comment' }).fill('Invoice sent');
    await activity.getByRole('button', { name: 'Comment', exact: true }).click();
    const mine = activity.getByRole('listitem').filter({ hasText: 'Invoice sent' });
    await mine.getByRole('button', { name: 'Edit' }).click();
    await activity.getByRole('textbox', { name: 'Edit comment' }).fill('Invoice sent on Monday');
    await activity.getByRole('button', { name: 'Save' }).click();
    const edited = activity.getByRole('listitem').filter({ hasText: 'Invoice sent on Monday' });
    await edited.getByText('edited').waitFor();
    await edited.getByRole('button', { name: 'Delete' }).click();
    await owner.getByRole('dialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete' }).click();
    await activity.getByText('Invoice sent on Monday').waitFor({ state: 'detached' });
    await activity.getByText('Called her about the invoice').waitFor();
  });

  browserTest('comments written, edited and deleted meanwhile show in the open expanded rows and the grid\'s counts', () => owner, async () => {
    const comment = (api: string, args: Record<string, unknown>) => call(`/dashboard?q=sqlOp_${api}`, { api, project_id: projectId, args: { tn: 'Customer', pk: '1', ...args } }, tokens.commenter);
    const ownerActivity = owner.getByRole('region', { name: 'Row activity' });
    const viewerActivity = viewer.getByRole('region', { name: 'Row activity' });
    await ownerActivity.getByText('Called her about the invoice').waitFor();
    await viewerActivity.getByText('Called her about the invoice').waitFor();
    const added = await comment('commentCreate', { body: 'Paid in full' });
    expect(added.status).toBe(200);
    await ownerActivity.getByText('Paid in full', { exact: true }).waitFor();
    await viewerActivity.getByText('Paid in full', { exact: true }).waitFor();
    expect((await comment('commentUpdate', { id: added.body.id, body: 'Paid in full on Friday' })).status).toBe(200);
    await ownerActivity.getByText('Paid in full on Friday').waitFor();
    await viewerActivity.getByText('Paid in full on Friday').waitFor();
    // The owner closes the row: the grid's count of its comments follows too.
    await owner.keyboard.press('Escape');
    await owner.getByRole('dialog', { name: 'Expanded row' }).waitFor({ state: 'detached' });
    // Two comments were there before (the commenter's note and the long address of the test above).
    await owner.getByRole('button', { name: '3 comments on row 1', exact: true }).waitFor();
    expect((await comment('commentDelete', { id: added.body.id })).status).toBe(200);
    await viewerActivity.getByText('Paid in full on Friday').waitFor({ state: 'detached' });
    await owner.getByRole('button', { name: '2 comments on row 1', exact: true }).waitFor();
  });

  browserTest('a table renamed by the owner while the viewer has it open: the viewer\'s tab follows it', () => viewer, async () => {
    // The row the viewer expanded before is closed first.
    await viewer.keyboard.press('Escape');
    await viewer.getByRole('dialog', { name: 'Expanded row' }).waitFor({ state: 'detached' });
    await viewer.locator('.tree').getByRole('button', { name: 'Genre', exact: true }).click();
    await viewer.getByRole('gridcell', { name: 'Rock', exact: true }).first().waitFor();
    // Its SQL name (the display name follows it), then its display name only.
    expect((await op('tableRename', { tn: 'Genre', newTn: 'Style' })).status).toBe(200);
    await viewer.getByRole('tab', { name: 'Style', exact: true }).waitFor();
    await viewer.getByRole('gridcell', { name: 'Rock', exact: true }).first().waitFor();
    expect((await op('tableRename', { tn: 'Style', _tn: 'Music Styles' })).status).toBe(200);
    await viewer.getByRole('tab', { name: 'Music Styles', exact: true }).waitFor();
    await viewer.getByRole('gridcell', { name: 'Jazz', exact: true }).first().waitFor();
    expect(await viewer.getByText(/Table '.*' not found/).count()).toBe(0);
    expect(await viewer.getByRole('tab', { name: /^(Genre|Style)$/ }).count()).toBe(0);
    await shot(viewer, 'collaboration-renamed-table');
  });

  browserTest('a table deleted by the owner while the viewer has it open: the viewer\'s tab closes, saying so', () => viewer, async () => {
    expect((await op('tableCreate', { tn: 'note', _tn: 'Notes', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'title', uidt: 'SingleLineText' }] })).status).toBe(200);
    expect((await call(`/nc/${projectId}/api/v1/note`, { title: 'Tour dates' })).status).toBe(200);
    await viewer.locator('.tree').getByRole('button', { name: 'Notes', exact: true }).click();
    await viewer.getByRole('tab', { name: 'Notes', exact: true }).waitFor();
    await viewer.getByRole('gridcell', { name: 'Tour dates', exact: true }).waitFor();
    expect((await op('tableDelete', { tn: 'note' })).status).toBe(200);
    await viewer.getByText("Table 'Notes' was deleted").waitFor();
    await viewer.getByRole('tab', { name: 'Notes', exact: true }).waitFor({ state: 'detached' });
    // The other open tab stays.
    await viewer.getByRole('tab', { name: 'Music Styles', exact: true }).waitFor();
    expect(await viewer.getByText(/Table '.*' not found/).count()).toBe(0);
    await shot(viewer, 'collaboration-deleted-table');
  });

  browserTest('an editor made viewer while their grid is open: the grid turns read-only without a reload', () => viewer, async () => {
    await member('editor@example.com', 'editor');
    const editor = await signIn('editor@example.com');
    try {
      await openCustomers(editor);
      await editor.getByRole('button', { name: '+ Add row' }).waitFor();
      await editor.getByText('Create a view', { exact: true }).waitFor();
      const members = (await call(`/admin?project_id=${projectId}`, undefined, tokens.owner, 'GET')).body.list as { id: string; email: string }[];
      const id = members.find((m) => m.email === 'editor@example.com')!.id;
      expect((await call(`/admin/${id}`, { roles: 'viewer', project_id: projectId }, tokens.owner, 'PUT')).status).toBe(200);
      await editor.getByText(/^Read-only: Not allowed to update rows of 'Customer'/).waitFor();
      await editor.getByRole('button', { name: '+ Add row' }).waitFor({ state: 'detached' });
      // Viewers do not change views: the views drawer no longer offers to create one.
      await editor.getByText('Create a view', { exact: true }).waitFor({ state: 'detached' });
      // Nor is the viewer's hidden Phone column shown any longer.
      await editor.getByRole('columnheader', { name: /Phone/ }).waitFor({ state: 'detached' });
      await shot(editor, 'collaboration-demoted-editor');
    } finally {
      await editor.context().close();
    }
  });

  browserTest('a member taken out of the project while their grid is open is told so and leaves its pages', () => viewer, async () => {
    const commenter = await signIn('commenter@example.com');
    try {
      await openCustomers(commenter);
      // Their role reads and comments: the grid says so, not that it only reads.
      await commenter.getByText("Read-only: Not allowed to update rows of 'Customer' (your role may read and comment)").waitFor();
      await shot(commenter, 'collaboration-commenter-grid');
      const members = (await call(`/admin?project_id=${projectId}`, undefined, tokens.owner, 'GET')).body.list as { id: string; email: string }[];
      const id = members.find((m) => m.email === 'commenter@example.com')!.id;
      expect((await call(`/admin/${id}?project_id=${projectId}`, undefined, tokens.owner, 'DELETE')).status).toBe(200);
      // The server ends the commenter's socket at once (4403): the page says why and shows the projects list.
      await commenter.getByText('You no longer have access to this project').waitFor();
      await commenter.waitForURL(/#\/projects/);
      await commenter.getByRole('gridcell', { name: 'Luís', exact: true }).first().waitFor({ state: 'detached' });
      await shot(commenter, 'collaboration-removed-member');
    } finally {
      await commenter.context().close();
    }
  });
});
