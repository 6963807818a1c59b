/**
 * Sign-in with an OpenID Connect provider in a real browser against the built binary and a real
 * authorization server (oidc-provider on loopback): the button shows because the provider is
 * configured, the provider's login and consent pages, the callback, the projects list; then the
 * account settings: display name, picture upload (shown in the profile icon), linked accounts.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, freePort, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { IDP_SECRET, startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider';

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'provider sign-in': ${problem}`);

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe.skipIf(!!problem && !process.env.CI)('provider sign-in in the browser', () => {
  let tablo: RunningTablo;
  let idp: IdentityProvider;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    idp = await startIdentityProvider([`${url}/user/authentication/callback`]);
    idp.accounts.set('grace', { email: 'grace@example.com', name: 'Grace Hopper' });
    tablo = await startTablo(
      { NC_PUBLIC_URL: url, NC_OIDC_ISSUER: idp.issuer, NC_OIDC_CLIENT_ID: 'tablo-oidc', NC_OIDC_CLIENT_SECRET: IDP_SECRET, NC_OIDC_NAME: 'Test IdP' },
      port,
    );
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await idp?.close();
  });

  browserTest('the provider button signs the first user in as Super Admin', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
    await button.waitFor();
    await shot(page, 'oauth-signin-buttons');
    await button.click();
    // The provider's own login page, then its consent page.
    await page.locator('input[name="login"]').fill('grace');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/#\/projects$/);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    await page.getByRole('menuitem', { name: 'grace@example.com' }).waitFor();
    await page.keyboard.press('Escape');
  });

  browserTest('a failed code sign-in shows the server message on the sign-in page', () => page, async () => {
    await page.goto(`${tablo.url}/user/authentication/callback?code=forged&state=oidc.forged`);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
    await page.getByText('This sign-in link is invalid or has expired, please try again').waitFor();
    await shot(page, 'oauth-failed-code');
    await page.goto(`${tablo.url}/#/projects`);
  });

  browserTest('account settings: display name, picture in the profile icon, linked accounts', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/settings/profile`);
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Grace');
    await page.getByLabel('Last name').fill('Brewster Hopper');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated').waitFor();

    await page.getByRole('link', { name: 'Picture' }).click();
    // A refused picture URL stays in the field to be corrected.
    await page.getByLabel('Or an image URL').fill('ftp://pictures.example/me.png');
    await page.getByRole('button', { name: 'Use this URL' }).click();
    await page.getByText('The picture URL must be an http or https URL').waitFor();
    await expect(page.getByLabel('Or an image URL').inputValue()).resolves.toBe('ftp://pictures.example/me.png');
    await page.getByLabel('Upload a picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await page.getByText('Picture updated').waitFor();
    await page.locator('.avatar img').waitFor();
    await shot(page, 'settings-picture');

    await page.getByRole('link', { name: 'Password' }).click();
    await page.getByRole('heading', { name: 'Set a password' }).waitFor();
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('cell', { name: 'grace@example.com' }).waitFor();
    await page.getByRole('button', { name: 'Unlink Test IdP' }).click();
    await page.getByText('Set a password before you unlink your only way to sign in').waitFor();
    await shot(page, 'settings-accounts');
  });

  browserTest('the Super Admin reads the audit log on /user/admin', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/admin`);
    // A provider account counts as joined.
    await page.getByRole('row', { name: /grace@example\.com.*active/ }).waitFor();
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'signed up as Super Admin with Test IdP' }).waitFor();
    await page.getByRole('cell', { name: /failed sign-in with Test IdP/ }).waitFor();
    await shot(page, 'admin-audit-log');
  });
  browserTest('an invite link opened by the invited account once signed in with the provider says it is used, with the way to its projects, the project among them', () => page, async () => {
    idp.accounts.set('ada', { email: 'ada@example.com', name: 'Ada Lovelace' });
    const made = await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Engines', projectType: 'rest' } });
    expect(made.status).toBe(200);
    const invite = await page.evaluate(async (projectId) => {
      const res = await fetch('/admin', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ email: 'ada@example.com', roles: ['editor'], project_id: projectId }),
      });
      return { status: res.status, body: await res.json() };
    }, made.body.id as string);
    expect(invite.status).toBe(200);
    const ada = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    try {
      await ada.goto(`${tablo.url}/#/user/authentication/signin`);
      await ada.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await ada.locator('input[name="login"]').fill('ada');
      await ada.locator('input[name="password"]').fill('any');
      await ada.locator('button[type="submit"]').click();
      await ada.locator('button[type="submit"]').click();
      await ada.waitForURL(/#\/projects$/);
      await ada.goto(`${tablo.url}/${new URL(invite.body.invite_url).hash}`);
      // The provider's sign-in took the invitation up: the link is used, and no sign-up form shows under the signed-in bar.
      await ada.getByText('You are signed in as ada@example.com.').waitFor();
      await ada.getByText('This invite link is invalid or has expired').waitFor();
      expect(await ada.getByLabel('Password').count()).toBe(0);
      await shot(ada, 'signup-invite-used-signed-in');
      await ada.getByRole('button', { name: 'Go to your projects' }).click();
      await ada.waitForURL(/#\/projects$/);
      await ada.getByRole('link', { name: 'Engines' }).waitFor();
    } finally {
      await ada.context().close();
    }
  });
});
