/**
 * Sign-up by invitation in a real browser against the built binary: once the Super Admin exists a
 * plain sign-up gets the server's invitation-only message; an invite link (/signup/{token})
 * opened while signed in says who is and offers to sign out; it asks for a password, refuses another e-mail with the server's message, and signs the invited
 * person in to the project they were invited to, which they open but do not manage.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';

// Browser steps wait on the page; a loaded machine can take a few seconds more than the default.
setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'invitations': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('invitations in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let invitePath = '';

  /** A JSON call to the server as the owner. */
  const call = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${tablo.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xc-auth': token, 'xc-gui': 'true' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<Record<string, unknown>>;
  };

  const signUp = async (email: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('invited-password');
    await page.getByRole('button', { name: 'Sign up' }).click();
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    const { token } = (await call('/auth/signup', '', { email: 'owner@example.com', password: 'password123' })) as { token: string };
    const created = (await call('/dashboard?q=sqlOp_projectCreateByWeb', token, { api: 'projectCreateByWeb', args: { title: 'Shared', projectType: 'rest' } })) as { id: string };
    const invite = (await call('/admin', token, { email: 'guest@example.com', roles: ['editor'], project_id: created.id })) as { invite_url: string };
    invitePath = new URL(invite.invite_url).hash;
    expect(invitePath).toMatch(/^#\/user\/authentication\/signup\/\S+$/);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('without an invite, the sign-up page says at once that it is by invitation only (no form to fill in for nothing)', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/authentication/signup`);
    await page.getByText('Sign-up is by invitation only: ask a project owner for an invite link, then open it to set your password.').waitFor();
    await expect(page.getByText('You will be the Super Admin').count()).resolves.toBe(0);
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign up' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in', exact: true }).waitFor();
    await shot(page, 'signup-invitation-only');
    // The server refuses it all the same.
    const res = await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'walk-in@example.com', password: 'password123' }) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { msg: string }).msg).toBe('Sign-up is by invitation only: ask a project owner for an invite link');
  });

  browserTest('opened while signed in, the invite link says who is signed in and whom it is for; signing out continues with its sign-up', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill('owner@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    await page.goto(`${tablo.url}/${invitePath}`);
    await page.getByText('You are signed in as owner@example.com.').waitFor();
    await page.getByText('This invitation is for guest@example.com.').waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    await shot(page, 'signup-invite-signed-in');
    await page.getByRole('button', { name: 'Sign out and continue' }).click();
    await page.getByText('Set a password to accept your invitation.').waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe('guest@example.com');
    // The address is filled in: the focus waits in the password, what is left to type.
    await page.waitForFunction(() => document.activeElement?.id === 'f-password');
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('button', { name: 'Profile menu' }).count()).toBe(0);
  });

  browserTest('the invite link asks for a password and refuses another e-mail', () => page, async () => {
    await page.goto(`${tablo.url}/${invitePath}`);
    await page.getByText('Set a password to accept your invitation.').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'f-password');
    await signUp('someone-else@example.com');
    await page.getByText('This invite was sent to another e-mail address').waitFor();
    await shot(page, 'signup-invite-wrong-email');
  });

  browserTest('the invited e-mail signs in and sees the project', () => page, async () => {
    await signUp('guest@example.com');
    await page.waitForURL(/#\/projects/);
    await page.getByRole('cell', { name: 'Shared' }).waitFor();
    // An editor opens the project but does not manage it: no Stop, Restart, Export, Clear metadata
    // or Delete (the server refuses them; a refused Delete once toasted 'Deleted Shared: Not allowed').
    const row = page.getByRole('row').filter({ hasText: 'Shared' });
    for (const action of ['Stop', 'Restart', 'Export', 'Clear metadata', 'Delete']) expect(await row.getByRole('button', { name: action }).count()).toBe(0);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menu').getByText('guest@example.com').waitFor();
    await shot(page, 'signup-invite-accepted');
  });
});
