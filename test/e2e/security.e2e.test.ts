/**
 * Security in the browser, against the built binary: the web app loads and works under its
 * Content-Security-Policy (no violation reported, no framing allowed), and the Super Admin lets an
 * invited user create projects from the Users page, after which that user sees New Project.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'security': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('security in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let admin: Page;
  let member: Page;
  const violations: string[] = [];
  /** Files the page asked for and did not get (the browser's own favicon request included). */
  const missing: string[] = [];
  let inviteLink = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    admin = await (await browser.newContext({ viewport: { width: 1300, height: 800 } })).newPage();
    admin.on('console', (m) => {
      if (/Content[- ]Security[- ]Policy|Refused to (load|execute|apply|connect)/i.test(m.text())) violations.push(m.text());
      if (/status of 404/.test(m.text())) missing.push(`${m.location().url}: ${m.text()}`);
    });
    await signUpInBrowser(admin, tablo.url, 'admin@example.com');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('the page carries its security headers and the app runs under them', () => admin, async () => {
    const res = await fetch(`${tablo.url}/`);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // The app works: a project is created and its grid opens.
    await admin.getByRole('button', { name: '+ New Project' }).first().click();
    await admin.getByLabel('Project name').fill('Headers');
    await admin.getByRole('button', { name: 'Create', exact: true }).click();
    await admin.getByText('Active Env').waitFor(); // the new project opens at once
    expect(violations).toEqual([]);
    // The icon is inline (allowed by img-src data:): no /favicon.ico asked for and missing.
    expect(missing).toEqual([]);
    // The Swagger page runs under its own policy (its inline script allowed by hash).
    const projectId = (await dashboardCallInPage(admin, 'PROJECT_READ_BY_WEB')).body.data.list[0].id;
    const docs = await (await browser.newContext()).newPage();
    docs.on('console', (m) => {
      if (/Content[- ]Security[- ]Policy|Refused to (load|execute|apply|connect)/i.test(m.text())) violations.push(m.text());
    });
    await docs.goto(`${tablo.url}/#/projects`);
    await docs.evaluate((token) => localStorage.setItem('tablo.token', token), await admin.evaluate(() => localStorage.getItem('tablo.token') ?? ''));
    await docs.goto(`${tablo.url}/nc/${projectId}/docs`);
    await docs.locator('.swagger-ui .info .title').waitFor();
    expect(violations).toEqual([]);
    await docs.close();
    // And the policy bites: a script injected into the page does not run.
    await admin.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.appendChild(s);
    });
    expect(await admin.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await Bun.sleep(100);
    expect(violations.some((v) => v.includes('inline script'))).toBe(true);
    violations.length = 0;
  });

  browserTest('the Super Admin allows an invited user to create projects from the Users page', () => admin, async () => {
    const projects = await dashboardCallInPage(admin, 'PROJECT_READ_BY_WEB');
    const projectId = projects.body.data.list[0].id;
    const invite = await admin.evaluate(
      async (pid) => (await (await fetch('/admin', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ email: 'maker@example.com', roles: 'editor', project_id: pid }) })).json()) as { invite_url: string },
      projectId,
    );
    inviteLink = invite.invite_url.replace(/^https?:\/\/[^/]+/, tablo.url);
    member = await (await browser.newContext({ viewport: { width: 1300, height: 800 } })).newPage();
    await member.goto(inviteLink);
    // The page fills in the invite's address once it has read the invite: typed before that, the form could be reset under the test.
    await member.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name=email]')?.value === 'maker@example.com');
    await member.getByLabel('Password').fill('password123');
    await member.getByRole('button', { name: 'Sign up' }).click();
    await member.waitForURL(/#\/projects/);
    await member.getByRole('link', { name: 'Headers' }).waitFor();
    expect(await member.getByRole('button', { name: '+ New Project' }).count()).toBe(0);

    await admin.goto(`${tablo.url}/#/user/admin`);
    const box = admin.getByLabel('May create projects: maker@example.com');
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    // A switch: toggled from the keyboard (Space), saved, then the list is read again.
    await box.focus();
    await admin.keyboard.press('Space');
    await admin.waitForFunction(() => (document.querySelector('[aria-label="May create projects: maker@example.com"]') as HTMLInputElement | null)?.checked === true);
    await shot(admin, 'security-users-may-create-projects');

    await member.reload();
    await member.getByRole('button', { name: '+ New Project' }).first().waitFor();
    expect(violations).toEqual([]);
  });
  browserTest('an editor opening an owner\'s panel by its address is told it is for owners and creators, and sees none of it', () => member, async () => {
    const projectId = (await dashboardCallInPage(admin, 'PROJECT_READ_BY_WEB')).body.data.list[0].id;
    await member.goto(`${tablo.url}/#/nc/${projectId}?name=meta&type=panel&dbalias=db`);
    await member.getByText("Project Metadata is for the project's owners and creators.").waitFor();
    expect(await member.getByRole('button', { name: /Export|Edit|Clear/ }).count()).toBe(0);
    await member.goto(`${tablo.url}/#/nc/${projectId}?name=sqlClient&type=panel&dbalias=db`);
    await member.getByText("SQL Client is for the project's owners and creators.").waitFor();
  });
});
