/**
 * axe-core in the page: the serious and critical violations of the page as it is now, as readable
 * lines. (The scan is injected, so the context that runs it bypasses the page's Content-Security-Policy.)
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary?: string }[] }

/** Serious and critical violations on the page as it is now (A11Y_DEBUG=1 prints each node). */
export async function scan(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const found = (await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } }).axe.run(document, { resultTypes: ['violations'] });
    return r.violations;
  })) as Violation[];
  const bad = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (process.env.A11Y_DEBUG) for (const v of bad) for (const n of v.nodes) console.log(v.id, n.target.join(' '), (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300));
  return bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}
