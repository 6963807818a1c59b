/** The GraphQL Client's request headers: the editor's win, but not a session token that has since been replaced. */
import { expect, test } from 'bun:test';
import { requestHeaders } from '../../web/src/features/graphql-client/request-headers';

test('a refreshed session token replaces the one the editor was prefilled with; typed headers otherwise win', () => {
  const seen = new Set(['old-session']);
  seen.add('new-session');
  const caller = { 'xc-auth': 'new-session', 'xc-preview': 'viewer' };
  // The editor still shows the token of the tab's opening: the current one goes instead.
  expect(requestHeaders(caller, { 'xc-auth': 'old-session', 'x-extra': '1' }, seen)).toEqual({ 'xc-auth': 'new-session', 'xc-preview': 'viewer', 'x-extra': '1' });
  // A token typed by hand (another user's, an API token's session) stays as typed.
  expect(requestHeaders(caller, { 'xc-auth': 'typed-by-hand' }, seen)['xc-auth']).toBe('typed-by-hand');
  // An emptied editor sends the caller's own headers; a typed xc-token goes beside them.
  expect(requestHeaders(caller, undefined, seen)).toEqual(caller);
  expect(requestHeaders(caller, { 'xc-token': 'tok' }, seen)).toEqual({ ...caller, 'xc-token': 'tok' });
  // With a master key there is no session token to replace.
  expect(requestHeaders({ 'xc-master-key': 'k' }, { 'xc-auth': 'old-session' }, seen)).toEqual({ 'xc-master-key': 'k', 'xc-auth': 'old-session' });
});
