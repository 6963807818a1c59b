/**
 * README's Configuration table and the settings Tablo reads are the same list: every setting (flag and
 * environment variable) has its row, and every row names a setting that exists, with the flag that
 * sets it.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_NAMES, kebab } from '../../src/config/config';

test('README lists every setting with its flag and variable, and no setting that does not exist', () => {
  const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| `(--[a-z-]+)` \| `([A-Z_]+)` \|/gm)].map((m) => [m[1], m[2]]);
  const settings = Object.entries(ENV_NAMES).map(([key, env]) => [`--${kebab(key)}`, env]);
  expect(rows.sort()).toEqual(settings.sort());
});
