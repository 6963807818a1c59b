/**
 * The App Store in a real browser against the built binary: configure SMTP against a test SMTP
 * server on 127.0.0.1 (smtp-server), invite a user from Share and read the mail the server got;
 * drop an image onto an Attachment cell and see its thumbnail; the audit log's App Store events. Screenshots: app-store.png,
 * app-store-smtp.png, attachment-thumbnail.png.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { startSmtp } from '../helpers/smtp';
import { waitFor } from '../helpers/receiver';
import { CATALOGUES } from '../../web/src/i18n/catalogues';
import { LOCALES, type LocaleCode } from '../../web/src/i18n/locales';

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'app store': ${problem}`);

/** A w x h PNG of two colours in diagonal halves, made here (no image library). */
function png(w: number, h: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(body, 4);
    view.setUint32(8 + data.length, Bun.hash.crc32(body));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, w);
  v.setUint32(4, h);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = new Uint8Array(h * (1 + w * 3));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) raw.set(x > y ? [37, 99, 235] : [250, 204, 21], y * (1 + w * 3) + 1 + x * 3);
  }
  const sig = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array([...sig, ...chunk('IHDR', ihdr), ...chunk('IDAT', new Uint8Array(deflateSync(raw))), ...chunk('IEND', new Uint8Array())]);
}

describe.skipIf(!!problem && !process.env.CI)('app store in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    smtp = await startSmtp();
    tablo = await startTablo({ NC_PUBLIC_URL: 'http://tablo.test' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'admin@example.com');
    projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Gallery' } })).body.id;
    const made = await dashboardCallInPage(page, 'tableCreate', { project_id: projectId, args: { tn: 'photo', _tn: 'Photos', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'caption', uidt: 'SingleLineText' }, { cn: 'pictures', uidt: 'Attachment', meta: { accept: ['image/*'] } }] } });
    expect(made.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await smtp?.stop();
  });

  browserTest('configure SMTP in the App Store, invite a user and read the mail the SMTP server got', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'App Store' }).click();
    const store = page.getByRole('region', { name: 'App Store' });
    await store.getByRole('article', { name: 'SMTP plugin' }).waitFor();
    await expect(store.getByTestId('status-Local').textContent()).resolves.toBe('Active');
    await shot(page, 'app-store');
    await store.getByRole('article', { name: 'SMTP plugin' }).getByRole('button', { name: 'Install' }).click();
    const form = page.getByRole('dialog', { name: 'Configure SMTP' });
    await form.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await form.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await form.getByLabel('From address', { exact: true }).fill('tablo@example.com');
    await form.getByLabel('Password', { exact: true }).fill('not-needed-secret');
    await form.getByLabel('Test address').fill('check@example.com');
    await form.getByRole('button', { name: 'Test' }).click();
    await form.getByText('A test mail was sent to check@example.com').waitFor();
    await shot(page, 'app-store-smtp');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    // The cards are read again after Save.
    await store.getByTestId('status-SMTP').filter({ hasText: /^Active$/ }).waitFor();
    expect(smtp.to('check@example.com')).toHaveLength(1);
    // Configure again: the saved password comes back masked, never in clear.
    await store.getByRole('article', { name: 'SMTP plugin' }).getByRole('button', { name: 'Configure' }).click();
    await expect(form.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('••••••••');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await shot(page, 'app-store-active');

    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByLabel('Invite e-mail').fill('friend@example.com');
    await page.getByRole('button', { name: /Invite role/ }).click();
    await page.getByRole('listbox', { name: 'Invite role' }).getByRole('option', { name: 'editor', exact: true }).click();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByTestId('invite-sent').getByText('The invite was sent by e-mail to friend@example.com').waitFor();
    const mail = await waitFor('the invite mail', () => smtp.to('friend@example.com')[0]);
    expect(mail.subject).toBe("Tablo: you are invited to 'Gallery'");
    expect(mail.text).toMatch(/http:\/\/tablo\.test\/#\/user\/authentication\/signup\/[\w-]+/);
    expect(mail.html).toContain('Accept the invite');
  });

  browserTest('drop an image onto an Attachment cell and see its thumbnail', () => page, async () => {
    const created = await page.evaluate(async (pid) => {
      const res = await fetch(`/nc/${pid}/api/v1/Photos`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ Caption: 'Sunset' }) });
      return res.status;
    }, projectId);
    expect(created).toBe(200);
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Photos', exact: true }).click();
    const cell = page.getByTestId('attachments-Pictures-1');
    await cell.waitFor();
    const bytes = Array.from(png(64, 64));
    const dt = await page.evaluateHandle((b) => {
      const d = new DataTransfer();
      d.items.add(new File([new Uint8Array(b)], 'sunset.png', { type: 'image/png' }));
      d.items.add(new File([new Uint8Array(b)], 'second.png', { type: 'image/png' }));
      return d;
    }, bytes);
    await cell.dispatchEvent('dragover', { dataTransfer: dt });
    await cell.dispatchEvent('drop', { dataTransfer: dt });
    const thumbs = cell.locator('img.cell-thumb');
    await thumbs.nth(1).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.cell-thumb')].filter((i) => i.complete && i.naturalWidth === 64).length >= 2);
    await expect(thumbs.first().getAttribute('alt')).resolves.toBe('sunset.png');
    // Paste into the selected cell, and pick with the + button.
    await cell.click();
    await page.evaluate((b) => {
      const d = new DataTransfer();
      d.items.add(new File([new Uint8Array(b)], 'pasted.png', { type: 'image/png' }));
      document.querySelector('[role="grid"]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: d, bubbles: true, cancelable: true }));
    }, bytes);
    await thumbs.nth(2).waitFor();
    await page.getByLabel('Pick files for Pictures').setInputFiles([{ name: 'picked.png', mimeType: 'image/png', buffer: Buffer.from(png(64, 64)) }]);
    await thumbs.nth(3).waitFor();
    await expect(thumbs.evaluateAll((els) => els.map((e) => e.getAttribute('alt')))).resolves.toEqual(['sunset.png', 'second.png', 'pasted.png', 'picked.png']);
    // A type the column does not accept is refused with the server's message.
    await page.getByLabel('Pick files for Pictures').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') }]);
    await page.getByText(/accepts only image\/\*/).first().waitFor();
    expect(await thumbs.count()).toBe(4);
    await cell.hover();
    await page.getByText('picked.png uploaded').waitFor({ state: 'detached' });
    await page.getByText(/accepts only/).first().waitFor({ state: 'detached' });
    await shot(page, 'attachment-thumbnail');
    // The expanded row uploads too, and the grid cell follows.
    await page.getByRole('button', { name: 'Expand row 1' }).click();
    const expandedRow = page.getByRole('dialog', { name: 'Expanded row' });
    await expandedRow.getByLabel('Pick files for Pictures').setInputFiles([{ name: 'fifth.png', mimeType: 'image/png', buffer: Buffer.from(png(64, 64)) }]);
    await expandedRow.locator('img.cell-thumb').nth(4).waitFor();
    await shot(page, 'attachment-expanded');
    await expandedRow.getByRole('button', { name: 'Close' }).click();
    await thumbs.nth(4).waitFor();
  });

  browserTest('branding: the uploaded logo and title show on the sign-in page and in the top bar', () => page, async () => {
    const bytes = Array.from(png(48, 48));
    const status = await page.evaluate(async (b) => {
      const form = new FormData();
      form.set('json', JSON.stringify({ api: 'xcPluginSet', args: { title: 'Branding', input: { title: 'Acme Data' } } }));
      form.set('file', new File([new Uint8Array(b)], 'logo.png', { type: 'image/png' }));
      const res = await fetch('/dashboard?q=sqlOp_xcPluginSet', { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: form });
      return res.status;
    }, bytes);
    expect(status).toBe(200);
    const visitor = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
    try {
      await visitor.goto(`${tablo.url}/#/user/authentication/signin`);
      await visitor.getByRole('main').getByTestId('brand').getByText('Acme Data').waitFor();
      await visitor.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.brand-page img.brand-logo');
        return !!img && img.complete && img.naturalWidth === 48;
      });
      await shot(visitor, 'branding-signin');
    } finally {
      await visitor.close();
    }
    await page.reload();
    await page.locator('.top-bar').getByText('Acme Data').waitFor();
  });

  browserTest('Uninstall asks first; Esc keeps the plugin and its form', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'App Store' }).click();
    const store = page.getByRole('region', { name: 'App Store' });
    await store.getByTestId('status-SMTP').filter({ hasText: /^Active$/ }).waitFor();
    await store.getByRole('article', { name: 'SMTP plugin' }).getByRole('button', { name: 'Configure' }).click();
    const form = page.getByRole('dialog', { name: 'Configure SMTP' });
    await form.getByRole('button', { name: 'Uninstall' }).click();
    const ask = page.getByRole('dialog', { name: 'Uninstall SMTP?' });
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Uninstall' }).waitFor();
    expect(await store.getByTestId('status-SMTP').textContent()).toBe('Active');
    await form.getByRole('button', { name: 'Uninstall' }).click();
    await ask.getByRole('button', { name: 'Uninstall' }).click();
    await form.waitFor({ state: 'detached' });
    await store.getByTestId('status-SMTP').filter({ hasText: /^Not installed$/ }).waitFor();
  });

  browserTest('the audit log lists App Store events under their own kind, named in the chosen language', () => page, async () => {
    const setLanguage = (language: string) =>
      page.evaluate((language) => {
        const key = 'tablo.settings.admin@example.com';
        localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key) ?? '{}'), language }));
      }, language);
    await page.goto(`${tablo.url}/#/user/admin`);
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const log = page.getByRole('region', { name: 'Audit log' });
    await log.getByLabel('Event kind').selectOption({ label: 'app store' });
    await log.getByRole('cell', { name: 'SMTP plugin uninstalled' }).waitFor();
    await log.getByRole('cell', { name: 'SMTP plugin installed' }).waitFor();
    // Only App Store events, each with its kind named (it showed the raw 'plugin' in every language).
    expect(new Set((await log.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((k) => k.trim()))).toEqual(new Set(['app store']));
    // A refused search says why; the next answered one takes the message away (it stayed for good).
    await log.getByLabel('Search the audit log').fill('x'.repeat(201));
    await log.getByRole('alert').waitFor();
    await log.getByLabel('Search the audit log').fill('SMTP');
    await log.getByRole('cell', { name: 'SMTP plugin installed' }).waitFor();
    await log.getByRole('alert').waitFor({ state: 'detached' });
    await setLanguage('fr');
    await page.reload();
    await page.getByRole('tab', { name: CATALOGUES.fr['admin.users.tabAudit'] }).click();
    const frLog = page.getByRole('region', { name: CATALOGUES.fr['admin.audit.title'] });
    await frLog.getByLabel(CATALOGUES.fr['admin.audit.eventKind']).selectOption({ label: CATALOGUES.fr['admin.audit.kindPlugin'] });
    await frLog.getByRole('cell', { name: CATALOGUES.fr['admin.audit.kindPlugin'] }).first().waitFor();
    // What happened is said in French too (it stayed the server's English).
    await frLog.getByRole('cell', { name: 'Extension SMTP désinstallée', exact: true }).waitFor();
    await shot(page, 'audit-log-app-store-fr');
    await setLanguage('en');
    await page.reload();
  });

  browserTest("a chat plugin's saved webhook URL comes masked; Show values shows it in full, and saving keeps it", () => page, async () => {
    const url = 'https://hooks.slack.com/services/T000/B000/Secret-Token-9f3a';
    expect((await dashboardCallInPage(page, 'xcPluginSet', { args: { title: 'Slack', input: { webhookUrl: url }, active: true } })).status).toBe(200);
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'App Store' }).click();
    const store = page.getByRole('region', { name: 'App Store' });
    await store.getByRole('article', { name: 'Slack plugin' }).getByRole('button', { name: 'Configure' }).click();
    const form = page.getByRole('dialog', { name: 'Configure Slack' });
    const field = form.getByLabel('Slack incoming-webhook URL', { exact: true });
    await expect(field.inputValue()).resolves.toBe('••••••••');
    await expect(field.getAttribute('type')).resolves.toBe('password');
    await form.getByText('The saved URL is hidden: leave it to keep it; type a new URL to replace it.').waitFor();
    await shot(page, 'app-store-chat-url-masked');
    await form.getByRole('button', { name: 'Show values' }).click();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[aria-label="Slack incoming-webhook URL"]')?.value.startsWith('https://'));
    await expect(field.inputValue()).resolves.toBe(url);
    await expect(field.getAttribute('type')).resolves.toBe('text');
    await expect(form.getByRole('button', { name: 'Show values' }).count()).resolves.toBe(0);
    await shot(page, 'app-store-chat-url-shown');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    expect((await dashboardCallInPage(page, 'xcPluginSecrets', { args: { title: 'Slack' } })).body).toEqual({ input: { webhookUrl: url } });
    expect((await dashboardCallInPage(page, 'xcPluginSet', { args: { title: 'Slack', input: null } })).status).toBe(200);
  });

  browserTest('the plugin forms are labelled in the chosen language, not in English', () => page, async () => {
    const fieldKeys = (Object.keys(CATALOGUES.en) as (keyof typeof CATALOGUES.en)[]).filter((k) => k.startsWith('admin.appStore.field.'));
    const pick = async (code: LocaleCode) => {
      await page.locator('header').getByRole('button', { name: new RegExp(`^(${LOCALES.map((l) => CATALOGUES[l.code]['common.language.menu']).join('|')})$`) }).click();
      await page.getByRole('menuitemradio', { name: LOCALES.find((l) => l.code === code)!.name }).click();
      await page.locator('header').getByRole('button', { name: CATALOGUES[code]['common.language.menu'], exact: true }).waitFor();
    };
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    try {
      for (const { code } of LOCALES.filter((l) => l.code !== 'en')) {
        const c = CATALOGUES[code];
        await pick(code);
        await page.getByRole('navigation', { name: c['schema.tree.label'] }).getByRole('button', { name: c['common.panels.appStore.title'], exact: true }).click();
        const store = page.getByRole('region', { name: c['common.panels.appStore.title'] });
        // The heading names the store as its tab and the tree do (French said 'App Store' under 'Boutique d'applications').
        expect({ code, heading: await store.getByRole('heading', { level: 2 }).innerText() }).toEqual({ code, heading: c['common.panels.appStore.title'] });
        // English labels this language says otherwise.
        const english = fieldKeys.filter((k) => c[k] !== CATALOGUES.en[k]).map((k) => CATALOGUES.en[k].replace('{title}', 'S3'));
        // Branding is named in the language (a common word); SMTP, S3 and Slack are proper names.
        for (const [title, name] of [['SMTP', 'SMTP'], ['S3', 'S3'], ['Branding', c['admin.appStore.nameBranding']], ['Slack', 'Slack']]) {
          const card = store.getByRole('article', { name: c['admin.appStore.pluginLabel'].replace('{title}', name!) });
          await card.getByRole('button', { name: new RegExp(`^(${c['admin.appStore.install']}|${c['admin.appStore.configure']})$`) }).click();
          const form = page.getByRole('dialog', { name: new RegExp(`^(${[c['admin.appStore.configureTitle'], c['admin.appStore.installTitle']].map((m) => m.replace('{title}', name!)).join('|')})$`) });
          await form.getByRole('button', { name: c['admin.common.save'] }).waitFor();
          // Each label is a line of its own (a required one ends with ' *').
          const lines = (await form.innerText()).split('\n').map((l) => l.replace(/\s*\*$/, '').trim());
          expect({ code, title, english: lines.filter((l) => english.includes(l)) }).toEqual({ code, title, english: [] });
          await form.getByRole('button', { name: c['admin.common.cancel'] }).click();
          await form.waitFor({ state: 'detached' });
        }
      }
      await shot(page, 'app-store-zh_CN');
    } finally {
      // A form left open by a failure is closed first (Esc), so that failure is the one reported.
      await page.keyboard.press('Escape');
      await pick('en');
    }
  }, 90_000);
});
