/**
 * The built-in terminal in a real browser against the binary (listening on 127.0.0.1, so the
 * terminal is on): open the Terminal tab, type `echo hello`, see hello; light and dark themes;
 * five tabs and the message at the sixth; closing one ends its shell; the modal outside the
 * dashboard; and a server listening on every address, where the tab says why it is off.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'terminal': ${problem}`);

/** The text of the visible terminal's rows (xterm's DOM renderer), one string per row. */
const rows = (page: Page) => page.locator('.terminal-host .xterm-rows > div').allTextContents();

/** Waits until a row of the visible terminal reads exactly `text` (trailing blanks aside). */
const waitForRow = (page: Page, text: string) =>
  page.waitForFunction((t) => [...document.querySelectorAll('.terminal-host .xterm-rows > div')].some((d) => d.textContent?.trimEnd() === t), text);

/** Waits until the visible terminal shows a shell prompt. */
const waitForPrompt = (page: Page) => page.waitForFunction(() => /[#$] ?$/m.test([...document.querySelectorAll('.terminal-host .xterm-rows > div')].map((d) => d.textContent?.trimEnd()).join('\n')));

describe.skipIf(!!problem && !process.env.CI)('terminal in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  /** A home without start-up files, so the shells start at once whatever this machine's profile does. */
  const home = mkdtempSync(join(tmpdir(), 'tablo-e2e-home-'));

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo({ HOST: '127.0.0.1', HOME: home });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tablo.url });
    page = await context.newPage();
    await signUpInBrowser(page, tablo.url, 'root@example.com');
    projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Shell work' } })).body.id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  browserTest('the Terminal tab runs a shell: echo hello shows hello (light and dark themes)', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Terminal', exact: true }).click();
    await page.getByRole('tab', { name: /Local \(1\)/ }).waitFor();
    await waitForPrompt(page);
    await page.locator('.terminal-host .xterm').click();
    await page.keyboard.type('echo hello');
    await page.keyboard.press('Enter');
    await waitForRow(page, 'hello');
    expect((await rows(page)).filter((r) => r.trimEnd() === 'hello')).toHaveLength(1);
    await shot(page, 'terminal-light');
    await page.getByRole('button', { name: '+ New terminal' }).focus();
    await page.keyboard.press('Control+Shift+B');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    // xterm's own colours follow: the dark theme's foreground on its rows.
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.terminal-host .xterm-rows')!).color === 'rgb(229, 231, 235)');
    await shot(page, 'terminal-dark');
    await page.keyboard.press('Control+Shift+B');
  }, 60_000);

  browserTest('the terminal follows the size of its tab; copy and paste go through the clipboard', () => page, async () => {
    const sizeRow = async () => (await rows(page)).map((r) => r.trimEnd()).filter((r) => /^\d+ \d+$/.test(r));
    await page.locator('.terminal-host .xterm').click();
    await page.keyboard.type('clear; stty size');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('.terminal-host .xterm-rows > div')].some((d) => /^\d+ \d+$/.test(d.textContent!.trimEnd())));
    const [wide] = await sizeRow();
    await page.setViewportSize({ width: 900, height: 560 });
    await page.waitForTimeout(300);
    await page.keyboard.type('clear; stty size');
    await page.keyboard.press('Enter');
    await page.waitForFunction((before) => [...document.querySelectorAll('.terminal-host .xterm-rows > div')].some((d) => /^\d+ \d+$/.test(d.textContent!.trimEnd()) && d.textContent!.trimEnd() !== before), wide!);
    const [narrow] = await sizeRow();
    const [r1, c1] = wide!.split(' ').map(Number);
    const [r2, c2] = narrow!.split(' ').map(Number);
    expect(r2!).toBeLessThan(r1!);
    expect(c2!).toBeLessThan(c1!);
    await page.setViewportSize({ width: 1280, height: 760 });
    // Paste: the clipboard's text typed into the shell.
    await page.evaluate(() => navigator.clipboard.writeText('echo pasted-$((2+3))'));
    await page.getByRole('button', { name: 'Paste' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.terminal-host .xterm-rows > div')].some((d) => d.textContent!.trimEnd().endsWith('# echo pasted-$((2+3))')));
    await page.keyboard.press('Enter');
    await waitForRow(page, 'pasted-5');
    // Copy: a selection made with the mouse lands in the clipboard.
    const row = page.locator('.terminal-host .xterm-rows > div', { hasText: /^pasted-5\s*$/ });
    const box = (await row.boundingBox())!;
    await page.mouse.move(box.x + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toStartWith('pasted-5');
  }, 60_000);

  browserTest('five terminals at most: the sixth says so; closing one ends its shell', () => page, async () => {
    for (let i = 2; i <= 5; i++) {
      await page.getByRole('button', { name: '+ New terminal' }).click();
      await page.getByRole('tab', { name: new RegExp(`Local \\(${i}\\)`) }).waitFor();
    }
    await waitForPrompt(page);
    await page.getByRole('button', { name: '+ New terminal' }).click();
    await page.getByText('Only 5 terminals can be opened').waitFor();
    expect(await page.getByRole('tab', { name: /Local/ }).count()).toBe(5);
    await shot(page, 'terminal-five');
    await page.getByTitle('Close Local (3)').click();
    await page.waitForFunction(() => document.querySelectorAll('.terminal-tab').length === 4);
    const audit = await page.evaluate(async () => {
      const res = await fetch('/admin/audit?op_type=TERMINAL', { headers: { 'xc-auth': localStorage.getItem('tablo.token') ?? '' } });
      return ((await res.json()) as { list: Array<{ description: string }> }).list.map((r) => r.description);
    });
    expect(audit.filter((d) => d.startsWith('terminal opened'))).toHaveLength(5);
    expect(audit.filter((d) => d.startsWith('terminal closed: closed by the user'))).toHaveLength(1);
    // A new one takes the free name.
    await page.getByRole('button', { name: '+ New terminal' }).click();
    await page.getByRole('tab', { name: /Local \(3\)/ }).waitFor();
  }, 60_000);

  browserTest('outside the dashboard, t opens the terminal in a modal with the same terminals, also after a reload', () => page, async () => {
    await page.goto(`${tablo.url}/#/projects`);
    // A reload comes back to the same shells; their newest output is drawn again.
    await page.reload();
    await page.getByRole('link', { name: 'Shell work' }).waitFor();
    await page.keyboard.press('t');
    const dialog = page.getByRole('dialog', { name: 'Terminal' });
    await dialog.waitFor();
    // The list of terminals is read when the modal opens.
    await dialog.getByRole('tab', { name: /Local/ }).nth(4).waitFor();
    expect(await dialog.getByRole('tab', { name: /Local/ }).count()).toBe(5);
    await waitForPrompt(page);
    await dialog.locator('.terminal-host .xterm').click();
    await page.keyboard.type('echo "in the $((1+1))nd window"');
    await page.keyboard.press('Enter');
    await waitForRow(page, 'in the 2nd window');
    await shot(page, 'terminal-modal');
    // Ctrl+Shift+X closes the current terminal; the window closes with its button, the others keep running.
    await page.keyboard.press('Control+Shift+X');
    await page.waitForFunction(() => document.querySelectorAll('.terminal-tab').length === 4);
    await dialog.getByRole('button', { name: 'Close window' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('t');
    await dialog.getByRole('tab', { name: /Local/ }).first().waitFor();
    expect(await dialog.getByRole('tab', { name: /Local/ }).count()).toBe(4);
  }, 60_000);
});

describe.skipIf(!!problem && !process.env.CI)('terminal turned off', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    // Listening on every address (the default 0.0.0.0): off unless NC_TERMINAL=1.
    tablo = await startTablo({ HOST: '0.0.0.0' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 760 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'root@example.com');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('the tab says why the terminal is off and how to turn it on', () => page, async () => {
    await page.keyboard.press('t');
    const dialog = page.getByRole('dialog', { name: 'Terminal' });
    await dialog.getByText('The terminal is off because Tablo listens on 0.0.0.0, reachable from other machines.').waitFor();
    await dialog.getByText(/NC_TERMINAL=1/).first().waitFor();
    expect(await dialog.locator('.xterm').count()).toBe(0);
    await shot(page, 'terminal-off');
    // With no terminal in it, Esc closes the modal (it stays with a running terminal, whose editors need it).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }, 60_000);

  browserTest('in French the tab says why and how in French, not in the server\'s English', () => page, async () => {
    await page.locator('header').getByRole('button', { name: 'Language', exact: true }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await page.keyboard.press('t');
    const dialog = page.getByRole('dialog', { name: 'Terminal' });
    await dialog.getByText('Le terminal est désactivé car Tablo écoute sur 0.0.0.0, joignable depuis d’autres machines.').waitFor();
    await dialog.getByText(/Démarrez Tablo avec HOST=127\.0\.0\.1/).waitFor();
    expect(await dialog.getByText(/reachable from other machines|Start Tablo with/).count()).toBe(0);
    await shot(page, 'terminal-off-fr');
  }, 60_000);
});
