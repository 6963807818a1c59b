/**
 * Password recovery and change in a real browser against the built binary: forgot password says
 * to check the e-mail (in the reader's language), the reset link (from the server log, as no mail is configured) is checked
 * before its form shows, a bad link lands on the invalid page, the new password signs in, and the
 * signed-in change at /user/settings/password shows the server's messages; a session in another
 * browser ends at its next periodic check. A picture URL that gives no image leaves the profile icon
 * with the initial and says so in the picture settings.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';

const EMAIL = 'keeper@example.com';
// Browser steps wait on the page; a loaded machine can take a few seconds more than the default.
setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'password recovery': ${problem}`);

/** Waits for the reset link the server logs for `email` and answers its token. */
async function resetTokenFromLog(tablo: RunningTablo, email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const line = tablo.logs.find((l) => l.includes(`password reset link for ${email}: `));
    const match = line?.match(/token=([\w-]+)\n$/);
    if (match) return match[1]!;
    await Bun.sleep(100);
  }
  throw new Error(`no reset link for ${email} in the server log:\n${tablo.logs.join('')}`);
}

async function signIn(page: Page, url: string, password: string): Promise<void> {
  await page.goto(`${url}/#/user/authentication/signin`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(!!problem && !process.env.CI)('password recovery in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    const res = await fetch(`${tablo.url}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: 'first-password' }),
    });
    expect(res.status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('after the first sign-up the root sends a visitor to sign-in; the user areas lead to their first screen', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/password`);
    await page.waitForURL(/#\/user\/password\/forgot$/);
    await page.goto(`${tablo.url}/#/user`);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
    await page.goto(`${tablo.url}/#/user/authentication`);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
    await page.goto(tablo.url);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
  });

  browserTest('forgot password checks the e-mail, then says to check the mailbox', () => page, async () => {
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/#\/user\/password\/forgot/);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('E-mail is required').waitFor();
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please check your email to reset the password').waitFor();
    await shot(page, 'password-forgot-sent');
  });

  browserTest("in Spanish, the forgot password page says to check the mailbox in Spanish", () => page, async () => {
    const spanish = await (await browser.newContext({ locale: 'es-ES' })).newPage();
    try {
      await spanish.goto(`${tablo.url}/#/user/password/forgot`);
      await spanish.getByLabel('Correo electrónico').fill('nobody@example.com');
      await spanish.getByRole('button', { name: 'Enviar enlace de restablecimiento' }).click();
      await spanish.getByText('Revise su correo electrónico para restablecer la contraseña').waitFor();
    } finally {
      await spanish.context().close();
    }
  });

  browserTest('a reset link that is not valid lands on the invalid page', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/password/reset?token=not-a-real-token`);
    await page.waitForURL(/#\/user\/password\/reset\/invalid/);
    await page.getByText('This password reset link is invalid or has expired.').waitFor();
    await shot(page, 'password-reset-invalid');
  });

  browserTest('the logged reset link sets a new password that signs in', () => page, async () => {
    const resetToken = await resetTokenFromLog(tablo, EMAIL);
    await page.goto(`${tablo.url}/#/user/password/reset?token=${resetToken}`);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Your password must be at least 8 characters').waitFor();
    await shot(page, 'password-reset-form');
    expect(await page.getByLabel('New password').getAttribute('autocomplete')).toBe('new-password');
    await page.getByLabel('New password').fill('second-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/#\/user\/password\/reset\/success/);
    await page.getByText('Your password was changed.').waitFor();
    await shot(page, 'password-reset-success');

    // The link is used up.
    await page.goto(`${tablo.url}/#/user/password/reset?token=${resetToken}`);
    await page.waitForURL(/#\/user\/password\/reset\/invalid/);

    await signIn(page, tablo.url, 'first-password');
    await page.getByText('Invalid email or password').waitFor();
    await signIn(page, tablo.url, 'second-password');
    await page.waitForURL(/#\/projects/);
  });

  browserTest('the e-mail in the profile menu opens the password change, which shows the server messages', () => page, async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: EMAIL }).click();
    await page.waitForURL(/#\/user\/settings\/password/);
    // The settings sections are listed beside the form, not above it.
    const nav = (await page.getByRole('navigation', { name: 'Account settings' }).boundingBox())!;
    const field = (await page.getByLabel('Current password').boundingBox())!;
    expect(field.x).toBeGreaterThan(nav.x + nav.width);
    expect(await page.getByLabel('Current password').getAttribute('autocomplete')).toBe('current-password');
    expect(await page.getByLabel('New password').getAttribute('autocomplete')).toBe('new-password');
    await page.getByLabel('Current password').fill('wrong-password');
    await page.getByLabel('New password').fill('third-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not correct').waitFor();
    await shot(page, 'password-change-wrong-current');
    await page.getByLabel('Current password').fill('second-password');
    await page.getByLabel('New password').fill('third-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password updated successfully').waitFor();
    await shot(page, 'password-change-done');

    // The session goes on with the new token; the next sign-in needs the new password.
    await page.reload();
    await page.getByLabel('Current password').waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await signIn(page, tablo.url, 'third-password');
    await page.waitForURL(/#\/projects/);
  });

  browserTest('a session in another browser ends at its next check once the password changes', () => page, async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await other.clock.install();
    const elsewhere = await other.newPage();
    await signIn(elsewhere, tablo.url, 'third-password');
    await elsewhere.waitForURL(/#\/projects/);

    const changed = await page.evaluate(async () => {
      const res = await fetch('/user/password/change', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ currentPassword: 'third-password', newPassword: 'fourth-password' }),
      });
      return res.status;
    });
    expect(changed).toBe(200);

    // Nothing happens before the poll interval (60 s) has passed ...
    await elsewhere.clock.fastForward(30_000);
    await elsewhere.getByText('Get started by creating a new project').or(elsewhere.getByRole('table')).first().waitFor();
    expect(elsewhere.url()).toMatch(/#\/projects/);
    // ... then the check of GET /user/me finds the session revoked and sends it to sign-in.
    await elsewhere.clock.fastForward(31_000);
    await elsewhere.getByText('Token expired please login to continue').waitFor();
    await elsewhere.waitForURL(/#\/user\/authentication\/signin/);
    await shot(elsewhere, 'password-session-ended-elsewhere');
    await other.close();
  });

  browserTest('a signed-out visitor of a signed-in page comes back to it after sign-in', () => page, async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    // The page leaves for sign-in first and signs out on the server after: the visit waits for that.
    const signedOut = page.waitForResponse((r) => r.url().endsWith('/auth/signout'));
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/#\/user\/authentication\/signin/);
    await signedOut;
    await page.goto(`${tablo.url}/#/user/settings/password`);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill('fourth-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/user\/settings\/password$/);
    await page.getByLabel('Current password').waitFor();
  });

  browserTest('a picture URL that gives no image: the profile icon keeps the initial and the settings say so', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/settings/picture`);
    await page.getByLabel('Or an image URL').fill(`${tablo.url}/no-such-picture.png`);
    await page.getByRole('button', { name: 'Use this URL' }).click();
    await page.getByText('The picture at this address could not be loaded: upload one or give another URL.').waitFor();
    const icon = page.getByRole('button', { name: 'Profile menu' });
    await expect(icon.locator('img').count()).resolves.toBe(0);
    expect((await icon.innerText()).trim()).toBe('K');
    await shot(page, 'picture-url-broken');
    // A picture that loads replaces the message and the initial.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await page.getByLabel('Upload a picture').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await icon.locator('img').waitFor();
    await expect(page.getByText('The picture at this address could not be loaded: upload one or give another URL.').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Remove picture' }).click();
  });
});
