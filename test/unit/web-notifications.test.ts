/** Success toasts read as done: the operation's title turned into the past tense, the bell keeps the title. */
import { expect, test } from 'bun:test';
import { notifications, pastTense, track } from '../../web/src/stores/notifications';
import { toasts } from '../../web/src/stores/toasts';

test('titles that start with a known verb become past tense', () => {
  expect(pastTense('Save row')).toBe('Saved row');
  expect(pastTense('Link Balls to the Wall')).toBe('Linked Balls to the Wall');
  expect(pastTense('Move card to Done')).toBe('Moved card to Done');
  expect(pastTense('Sync metadata of db')).toBe('Synced metadata of db');
});

test('other titles and verb-like words inside a title stay as they are', () => {
  expect(pastTense('Webhook saved')).toBe('Webhook saved');
  expect(pastTense('Saveable thing')).toBe('Saveable thing');
  expect(pastTense('Rights of editor on Album')).toBe('Rights of editor on Album');
});

test('track shows the past tense on success and the title with the reason on failure', async () => {
  await track('Save row', Promise.resolve(1));
  expect(toasts.value.at(-1)?.text).toBe('Saved row');
  await track('Add row', Promise.reject(new Error('Album is required'))).catch(() => {});
  expect(toasts.value.at(-1)).toMatchObject({ kind: 'error', text: 'Add row: Album is required' });
  expect(notifications.value.map((n) => n.title)).toEqual(['Add row', 'Save row']);
});

test('every operation tracked in the web app is named by what it does, not by its outcome', async () => {
  // A failure reads '{title}: {reason}' and the bell lists the title while it runs: a title such as
  // 'Webhook created' or 'Deleted Chinook' read 'Deleted Chinook: Not allowed' when it was refused.
  const { Glob } = await import('bun');
  const en: Record<string, string> = {};
  for await (const f of new Glob('web/src/i18n/messages/*/en.json').scan('.')) Object.assign(en, await Bun.file(f).json());
  const titleKeys: string[] = [];
  for await (const f of new Glob('web/src/**/*.{ts,tsx}').scan('.')) {
    const src = await Bun.file(f).text();
    // track(t('key'...), ...) and track(cond ? t('a'...) : t('b'...), ...), and the wrappers that pass
    // their first argument to track: act(...), run(...), and edit(..., [op, done]).
    for (const m of src.matchAll(/\b(?:track|act|run)\(\s*(?:[\w.!]+\s*\?\s*)?t\('([\w.]+)'(?:[^()]*\))?(?:\s*:\s*t\('([\w.]+)')?/g)) titleKeys.push(...[m[1]!, m[2]].filter((k): k is string => !!k));
    for (const m of src.matchAll(/\[t\('([\w.]+)'[^\]]*?\), t\('[\w.]+'/g)) titleKeys.push(m[1]!);
  }
  expect(titleKeys.length).toBeGreaterThan(30);
  const outcomes = titleKeys.filter((k) => en[k] !== undefined && /(^|\s)(\w+ed|sent|ran|run|done)(\s|$)/.test(en[k]!.replace(/\{[^}]*\}/g, 'x')));
  expect(outcomes.map((k) => `${k}: ${en[k]}`)).toEqual([]);
});
