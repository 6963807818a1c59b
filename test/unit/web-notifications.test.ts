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
