/**
 * Team in the browser: the owner invites a viewer from Team & Auth (Share), the viewer signs up
 * with the link in a second browser context (its address filled in; the used link says so at
 * once) and sees the grid read-only without the Settings entry (nor an import in the table's menu); the owner creates an API token
 * that is shown once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, launchBrowser, shot, startTablo, type RunningTablo, signInInBrowser, signUpInBrowser, dashboardCallInPage } from './helpers';
import { dbName, dropDatabase, loadChinook } from '../helpers/engines';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'team': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('team in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let owner: Page;
  let projectId = '';
  let inviteLink = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    await loadChinook('pg', 'tablo_t_e2e_team_pg');
    tablo = await startTablo();
    browser = await launchBrowser();
    const ownerContext = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    await ownerContext.grantPermissions(['clipboard-read', 'clipboard-write']);
    owner = await ownerContext.newPage();
    await signUpInBrowser(owner, tablo.url, 'owner@example.com');
    // The project is connected through the dashboard call (the form has its own e2e).
    projectId = (await dashboardCallInPage(owner, 'projectCreateByWeb', { args: { title: 'Music', db: { client: 'pg', connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: dbName('tablo_t_e2e_team_pg') } } } })).body.id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await dropDatabase('pg', 'tablo_t_e2e_team_pg');
  });

  test('the owner invites a viewer from Share and gets the link', async () => {
    expect(projectId).toMatch(/^music_/);
    await owner.goto(`${tablo.url}/#/nc/${projectId}`);
    // The owner's table menu in the tree offers an import into the table.
    await owner.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Track', exact: true }).click({ button: 'right' });
    await owner.getByRole('menu', { name: 'Table Track' }).getByRole('menuitem', { name: 'Import CSV, Excel or JSON…' }).waitFor();
    await owner.keyboard.press('Escape');
    await owner.getByRole('button', { name: 'Share' }).click();
    // A refused invite says why; the message goes once the next invite is sent.
    await owner.getByLabel('Invite e-mail').fill('not-an-e-mail');
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    const refused = owner.getByRole('region', { name: 'Users Management' }).getByText('E-mail must be valid');
    await refused.waitFor();
    await owner.getByLabel('Invite e-mail').fill('viewer@example.com');
    await owner.getByRole('button', { name: /Invite role/ }).click();
    await owner.getByRole('listbox', { name: 'Invite role' }).getByRole('option', { name: 'viewer', exact: true }).click();
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    inviteLink = (await owner.getByTestId('invite-link').textContent())!;
    expect(inviteLink).toContain('/#/user/authentication/signup/');
    await owner.getByRole('cell', { name: 'viewer@example.com', exact: true }).waitFor();
    expect(await refused.count()).toBe(0);
    await shot(owner, 'team-invited');
  });

  test('the viewer joins in another browser and sees the grid read-only without Settings', async () => {
    const viewer = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    const link = inviteLink.replace(/^https?:\/\/[^/]+/, tablo.url);
    await viewer.goto(link);
    // The address the invite went to is filled in.
    await viewer.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name=email]')?.value === 'viewer@example.com');
    await viewer.getByLabel('Password').fill('password123');
    await viewer.getByRole('button', { name: 'Sign up' }).click();
    await viewer.waitForURL(/#\/projects/);
    // The used link says so at once, before anything is typed.
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await again.getByText('This invite link is invalid or has expired').waitFor();
    expect(await again.getByLabel('Password').count()).toBe(0);
    await again.context().close();
    await viewer.getByRole('link', { name: 'Music' }).click();
    const tree = viewer.getByRole('navigation', { name: 'Project tree' });
    // The table's menu in the tree offers its exports, not an import (the viewer may not add rows).
    await tree.getByRole('button', { name: 'Track', exact: true }).click({ button: 'right' });
    const menu = viewer.getByRole('menu', { name: 'Table Track' });
    await menu.getByRole('menuitem', { name: 'Export as CSV' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: /^Import/ }).count()).toBe(0);
    await viewer.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await tree.getByRole('button', { name: 'Track', exact: true }).click();
    await viewer.getByText(/^Read-only: Not allowed to update rows of 'Track'/).waitFor();
    expect(await viewer.getByRole('button', { name: '+ Add row' }).count()).toBe(0);
    expect(await tree.getByRole('button', { name: 'Themes' }).count()).toBe(0);
    expect(await tree.getByRole('button', { name: 'Team & Auth' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Share' }).count()).toBe(0);
    await shot(viewer, 'team-viewer-read-only');
    // A link to an owner's panel says the viewer may not use it, and does not stay on 'Loading…'.
    await viewer.goto(`${tablo.url}/#/nc/${projectId}?name=acl&dbalias=db&type=panel`);
    await viewer.reload();
    await viewer.getByText("Roles Management is for the project's owners and creators.").waitFor();
    expect(await viewer.getByText('Loading…').count()).toBe(0);
    expect(await viewer.getByRole('region', { name: 'Roles Management' }).count()).toBe(0);
  });

  test('an API token is shown once and listed without it', async () => {
    // Before the first token, the empty list says what a token is for.
    await owner.getByText(/^No API tokens yet\./).waitFor();
    await owner.getByRole('button', { name: 'Create token' }).click();
    const refused = owner.getByRole('region', { name: 'API Tokens Management' }).getByText('A description is required');
    await refused.waitFor();
    await owner.getByLabel('Token description').fill('CI pipeline');
    await owner.getByRole('button', { name: /Token role/ }).click();
    await owner.getByRole('listbox', { name: 'Token role' }).getByRole('option', { name: 'viewer', exact: true }).click();
    await owner.getByRole('button', { name: 'Create token' }).click();
    const token = (await owner.getByTestId('new-token').textContent())!;
    expect(token).toStartWith('tablo_');
    // Copy puts the token shown once on the clipboard.
    await owner.getByRole('region', { name: 'API Tokens Management' }).getByRole('button', { name: 'Copy', exact: true }).click();
    await owner.getByText('Copied the token').waitFor();
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await owner.getByRole('cell', { name: 'CI pipeline' }).waitFor();
    expect(await owner.getByText(/^No API tokens yet\./).count()).toBe(0);
    expect(await refused.count()).toBe(0);
    const res = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Track/count`, { headers: { 'xc-token': token } });
    expect(await res.json()).toEqual({ count: 3503 });
  });

  test('a token expires at the start of the day picked where its owner is, and is listed with that day', async () => {
    // Far east of UTC (UTC+14), the 31st of December 2030 starts at 10:00 UTC on the 30th.
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 }, timezoneId: 'Pacific/Kiritimati' });
    const east = await context.newPage();
    await signInInBrowser(east, tablo.url, 'owner@example.com');
    await east.goto(`${tablo.url}/#/nc/${projectId}?name=roles&dbalias=db&type=panel`);
    const tokens = east.getByRole('region', { name: 'API Tokens Management' });
    await tokens.getByLabel('Token description').fill('Year end');
    await tokens.getByRole('spinbutton', { name: /^month/i }).click();
    await east.keyboard.type('12312030');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const row = tokens.getByRole('row').filter({ has: east.getByRole('cell', { name: 'Year end', exact: true }) });
    await row.getByRole('cell', { name: 'Dec 31, 2030', exact: true }).waitFor();
    const listed = (await dashboardCallInPage(east, 'xcApiTokenList', { project_id: projectId })).body.data.list;
    expect(listed.find((tk: { description: string }) => tk.description === 'Year end').expiresAt).toBe('2030-12-30T10:00:00.000Z');
    await context.close();
  });

  test('the Super Admin finds users and disables one', async () => {
    await owner.getByRole('button', { name: 'Profile menu' }).click();
    await owner.getByRole('menuitem', { name: 'Users' }).click();
    await owner.waitForURL(/#\/user\/admin/);
    // Their own row offers neither Disable nor taking their Super Admin role away (the server refuses both).
    const self = owner.getByRole('main').getByRole('row').filter({ has: owner.getByRole('cell', { name: 'owner@example.com', exact: true }) });
    await self.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await self.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    expect(await self.getByRole('checkbox', { name: 'Super Admin: owner@example.com' }).isDisabled()).toBe(true);
    await owner.getByLabel('Search users').fill('viewer');
    const users = owner.getByRole('main').getByRole('table');
    await users.getByRole('cell', { name: 'owner@example.com', exact: true }).waitFor({ state: 'detached' });
    await users.getByRole('cell', { name: 'viewer@example.com', exact: true }).first().waitFor();
    await owner.getByRole('button', { name: 'Disable' }).click();
    await users.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
    await shot(owner, 'team-users-admin');
    // A search that finds nobody says so (not an empty table under its headers).
    await owner.getByLabel('Search users').fill('zebra');
    await users.getByRole('cell', { name: "No user matches 'zebra'" }).waitFor();
    await shot(owner, 'team-users-no-match');
    await owner.getByLabel('Search users').fill('');
    await users.getByRole('cell', { name: 'owner@example.com', exact: true }).waitFor();
    const res = await fetch(`${tablo.url}/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'viewer@example.com', password: 'password123' }) });
    expect(res.status).toBe(403);
  });

  test('inviting someone who already has an account adds them at once, and the panel says so (no link)', async () => {
    const other = (await dashboardCallInPage(owner, 'projectCreateByWeb', { args: { title: 'Second' } })).body.id as string;
    await owner.goto(`${tablo.url}/#/nc/${other}`);
    await owner.getByRole('button', { name: 'Share' }).click();
    await owner.getByLabel('Invite e-mail').fill('viewer@example.com');
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    await owner.getByTestId('invite-sent').getByText('The user was added to the project').waitFor();
    expect(await owner.getByTestId('invite-link').count()).toBe(0);
    await owner.getByRole('cell', { name: 'viewer@example.com', exact: true }).waitFor();
  });

  test('removing a member and deleting an API token ask first; Esc keeps them', async () => {
    const members = owner.getByRole('region', { name: 'Users Management' });
    const viewerRow = members.getByRole('row').filter({ has: owner.getByRole('cell', { name: 'viewer@example.com', exact: true }) });
    await viewerRow.getByRole('button', { name: 'Remove' }).click();
    const ask = owner.getByRole('dialog', { name: 'Remove viewer@example.com from the project?' });
    await ask.waitFor();
    await owner.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await viewerRow.getByRole('button', { name: 'Remove' }).click();
    await ask.getByRole('button', { name: 'Remove' }).click();
    await members.getByRole('cell', { name: 'viewer@example.com', exact: true }).waitFor({ state: 'detached' });
    // The owner's own row offers no Remove: owners cannot remove themselves (the server refuses it).
    const ownRow = members.getByRole('row').filter({ has: owner.getByRole('cell', { name: 'owner@example.com', exact: true }) });
    await ownRow.waitFor();
    expect(await ownRow.getByRole('button', { name: 'Remove' }).count()).toBe(0);

    const tokens = owner.getByRole('region', { name: 'API Tokens Management' });
    await owner.getByLabel('Token description').fill('Short-lived');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const token = (await owner.getByTestId('new-token').textContent())!;
    const tokenRow = tokens.getByRole('row').filter({ has: owner.getByRole('cell', { name: 'Short-lived', exact: true }) });
    await tokenRow.getByRole('button', { name: 'Delete' }).click();
    const confirm = owner.getByRole('dialog', { name: "Delete the API token 'Short-lived'?" });
    await confirm.getByText('This cannot be undone.', { exact: false }).waitFor();
    await shot(owner, 'team-token-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await tokens.getByRole('cell', { name: 'Short-lived', exact: true }).waitFor({ state: 'detached' });
    const other = /#\/nc\/([^/?]+)/.exec(owner.url())![1]!;
    const listed = await dashboardCallInPage(owner, 'xcApiTokenList', { project_id: other });
    expect(listed.body.data.list.map((t: { description: string }) => t.description)).not.toContain('Short-lived');
    expect(token).toStartWith('tablo_');
  });

  test('Resend invite shows the new link, the only one that works from then on', async () => {
    await owner.getByLabel('Invite e-mail').fill('late@example.com');
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    const shown = owner.getByTestId('invite-link');
    const first = (await shown.filter({ hasText: '/signup/' }).textContent())!;
    const row = owner.getByRole('region', { name: 'Users Management' }).getByRole('row').filter({ has: owner.getByRole('cell', { name: 'late@example.com', exact: true }) });
    await row.getByRole('button', { name: 'Resend invite' }).click();
    // The link on the page changes to the new one.
    await shown.filter({ hasNotText: first }).waitFor();
    const second = (await shown.textContent())!;
    const valid = async (link: string) => (await fetch(`${tablo.url}/auth/invite/${link.split('/signup/')[1]}`)).status;
    expect(await valid(second)).toBe(200);
    expect(await valid(first)).toBe(400);
  });

  test('a creator is not offered what only owners may do: grant the owner role, change or remove an owner', async () => {
    const invited = await owner.evaluate(
      async (projectId) =>
        (await fetch('/admin', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ email: 'creator@example.com', roles: 'creator', project_id: projectId }) })).json(),
      projectId,
    );
    const creator = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    try {
      await creator.goto(invited.invite_url.replace(/^https?:\/\/[^/]+/, tablo.url));
      await creator.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name=email]')?.value === 'creator@example.com');
      await creator.getByLabel('Password').fill('password123');
      await creator.getByRole('button', { name: 'Sign up' }).click();
      await creator.waitForURL(/#\/projects/);
      await creator.goto(`${tablo.url}/#/nc/${projectId}`);
      await creator.getByRole('button', { name: 'Share' }).click();
      const members = creator.getByRole('region', { name: 'Users Management' });
      const ownerRow = members.getByRole('row').filter({ has: creator.getByRole('cell', { name: 'owner@example.com', exact: true }) });
      const creatorRow = members.getByRole('row').filter({ has: creator.getByRole('cell', { name: 'creator@example.com', exact: true }) });
      await creatorRow.getByRole('button', { name: 'Remove' }).waitFor();
      // The owner's role and membership are the owners' to change: shown, not offered.
      expect(await ownerRow.getByRole('button', { name: /Role of owner@example.com/ }).isDisabled()).toBe(true);
      expect(await ownerRow.getByRole('button', { name: 'Remove' }).count()).toBe(0);
      await creator.getByRole('button', { name: /Invite role/ }).click();
      expect(await creator.getByRole('listbox', { name: 'Invite role' }).getByRole('option').allTextContents()).toEqual(['creator', 'editor', 'commenter', 'viewer']);
      await creator.keyboard.press('Escape');
      await creatorRow.getByRole('button', { name: /Role of creator@example.com/ }).click();
      expect(await creator.getByRole('listbox').getByRole('option', { name: 'owner', exact: true }).count()).toBe(0);
      await creator.keyboard.press('Escape');
      await creator.getByRole('button', { name: /Token role/ }).click();
      expect(await creator.getByRole('listbox', { name: 'Token role' }).getByRole('option').allTextContents()).toEqual(['editor', 'commenter', 'viewer', 'creator']);
      await creator.keyboard.press('Escape');
      // An owner token is listed, but disabling or deleting it is the owners' (the server refuses a creator).
      const made = await owner.evaluate(async (pid) => {
        const res = await fetch('/dashboard?q=sqlOp_xcApiTokenCreate', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ api: 'xcApiTokenCreate', project_id: pid, args: { description: 'Owner automation', role: 'owner' } }) });
        return res.status;
      }, projectId);
      expect(made).toBe(200);
      await creator.reload();
      await creator.getByRole('button', { name: 'Share' }).click();
      const tokenRows = creator.getByRole('region', { name: 'API Tokens Management' }).getByRole('row');
      const ownerToken = tokenRows.filter({ has: creator.getByRole('cell', { name: 'Owner automation', exact: true }) });
      await ownerToken.waitFor();
      expect(await ownerToken.getByRole('button').count()).toBe(0);
      await tokenRows.filter({ has: creator.getByRole('cell', { name: 'CI pipeline', exact: true }) }).getByRole('button', { name: 'Delete' }).waitFor();
      await shot(creator, 'team-creator');
      // The owner is offered all of it, but not to remove themselves.
      await owner.goto(`${tablo.url}/#/nc/${projectId}`);
      await owner.getByRole('button', { name: 'Share' }).click();
      const self = owner.getByRole('region', { name: 'Users Management' }).getByRole('row').filter({ has: owner.getByRole('cell', { name: 'owner@example.com', exact: true }) });
      await owner.getByRole('region', { name: 'Users Management' }).getByRole('row').filter({ has: owner.getByRole('cell', { name: 'creator@example.com', exact: true }) }).getByRole('button', { name: 'Remove' }).waitFor();
      expect(await self.getByRole('button', { name: 'Remove' }).count()).toBe(0);
      await owner.getByRole('button', { name: /Invite role/ }).click();
      expect(await owner.getByRole('listbox', { name: 'Invite role' }).getByRole('option').allTextContents()).toEqual(['owner', 'creator', 'editor', 'commenter', 'viewer']);
      await owner.keyboard.press('Escape');
    } finally {
      await creator.context().close();
    }
  });

  test('a member disabled on the Users page while working elsewhere is signed out at once, told the account is disabled', async () => {
    const invited = await owner.evaluate(
      async (projectId) =>
        (await fetch('/admin', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ email: 'ann@example.com', roles: 'editor', project_id: projectId }) })).json(),
      projectId,
    );
    const ann = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    try {
      await ann.goto(invited.invite_url.replace(/^https?:\/\/[^/]+/, tablo.url));
      await ann.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name=email]')?.value === 'ann@example.com');
      await ann.getByLabel('Password').fill('password123');
      await ann.getByRole('button', { name: 'Sign up' }).click();
      await ann.waitForURL(/#\/projects/);
      await ann.goto(`${tablo.url}/#/nc/${projectId}`);
      await ann.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Track', exact: true }).click();
      await ann.getByRole('button', { name: '+ Add row' }).waitFor();
      const session = (await ann.evaluate(() => localStorage.getItem('tablo.token')))!;
      await owner.goto(`${tablo.url}/#/user/admin`);
      await owner.getByLabel('Search users').fill('ann@');
      const users = owner.getByRole('main').getByRole('table');
      await users.getByRole('cell', { name: 'owner@example.com', exact: true }).waitFor({ state: 'detached' });
      await users.getByRole('row').filter({ has: owner.getByRole('cell', { name: 'ann@example.com', exact: true }) }).getByRole('button', { name: 'Disable' }).click();
      await users.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
      // Her open page is ended by the server at once: it says why (not that a token expired) and shows the sign-in.
      await ann.getByText('This account is disabled', { exact: true }).waitFor({ timeout: 5_000 });
      await ann.waitForURL(/#\/user\/authentication\/signin/);
      expect(await ann.getByText('Token expired please login to continue').count()).toBe(0);
      await shot(ann, 'team-disabled-signed-out');
      // A call made with her old session answers the same, as JSON.
      const res = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Track/count`, { headers: { 'xc-auth': session } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ msg: 'This account is disabled', code: 'ACCOUNT_DISABLED' });
    } finally {
      await ann.context().close();
    }
  });
});
