/** Presence avatars: initials from a name or an e-mail; at most five avatars, then "+N" naming the rest; the group's label. */
import { expect, test } from 'bun:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { initialsOf, PresenceAvatars } from '../../web/src/features/views/presence-avatars';
import { presence, type PresenceUser } from '../../web/src/stores/presence';

const user = (email: string, name?: string): PresenceUser => ({ id: email, email, ...(name ? { name } : {}), color: '#0b5cad' });

test('initials come from the first two words of the name, else from the parts of the e-mail before the @', () => {
  expect(initialsOf(user('ada.lovelace@example.com'))).toBe('AL');
  expect(initialsOf(user('owner@example.com'))).toBe('O');
  expect(initialsOf(user('x@example.com', 'grace brewster hopper'))).toBe('GB');
  expect(initialsOf(user('jean_luc-picard@example.com'))).toBe('JL');
});

test('five avatars are shown, then "+N" naming the others; the group says who is here', () => {
  presence.value = { Customer: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((x) => user(`${x}@example.com`)) };
  const html = renderToStaticMarkup(createElement(PresenceAvatars, { table: 'Customer' }));
  expect(html.match(/class="presence-avatar"/g)?.length).toBe(5);
  expect(html).toContain('role="group" aria-label="Also here: a@example.com, b@example.com, c@example.com, d@example.com, e@example.com, f@example.com, g@example.com"');
  expect(html).toContain('aria-label="2 more: f@example.com, g@example.com"');
  expect(html).toContain('>+2</span>');
  expect(renderToStaticMarkup(createElement(PresenceAvatars, { table: 'Album' }))).toBe('');
  presence.value = {};
});
