/**
 * A websocket upgrade whose check fails unexpectedly (the metadata store answers with an error that is
 * none of the app's own) is the server's fault: 500 {msg}, logged; it is never answered 401, which the
 * web app takes for a session that ended. A caller who is not signed in still gets 401.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { postJson, rawUpgrade, serveTestApp, type ServedApp } from '../helpers/terminal';
import { usersRepo } from '../../src/meta/users-repo';
import { REALTIME_PATH } from '../../src/realtime/feature';

const MSG_INTERNAL = 'Something went wrong on the server; it has been logged.';

let t: ServedApp;
let token = '';
let userId = '';

/** Upgrades the realtime socket of a project with `query` (the caller's token in it). */
async function realtimeUpgrade(query: string) {
  const res = await fetch(`${t.base}${REALTIME_PATH}?${query}`, {
    headers: { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' },
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Runs `fn` while a table of the metadata store is away, so that reading it fails with the store's own error. */
async function withoutTable<T>(table: string, fn: () => Promise<T>): Promise<T> {
  await t.app.ctx.meta.exec(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await fn();
  } finally {
    await t.app.ctx.meta.exec(`ALTER TABLE ${table}_away RENAME TO ${table}`);
  }
}

beforeAll(async () => {
  t = await serveTestApp({ host: '127.0.0.1', allowSignup: true });
  token = (await postJson(t.base, '/auth/signup', { email: 'root@example.com', password: 'password123' })).token;
  userId = ((await (await fetch(`${t.base}/user/me`, { headers: { 'xc-auth': token } })).json()) as { id: string }).id;
});
afterAll(async () => {
  await t.close();
});

test('the realtime upgrade answers 500 {msg, code}, not 401, when the check fails unexpectedly; 401 only without a session', async () => {
  const failed = await withoutTable('nc_project_users', () => realtimeUpgrade(`project_id=p_unknown&token=${token}`));
  expect(failed).toEqual({ status: 500, body: { msg: MSG_INTERNAL, code: 'INTERNAL' } });
  expect(t.log.lines.some((l) => l.startsWith('ERROR unhandled error on the realtime socket upgrade'))).toBe(true);
  expect(await realtimeUpgrade('project_id=p_unknown')).toEqual({ status: 401, body: { msg: 'Not signed in' } });
});

test('the terminal upgrade answers 500 {msg, code}, not 401, when the check fails unexpectedly', async () => {
  // The user's row is read from the store again.
  usersRepo(t.app.ctx.meta).forget(userId);
  expect(usersRepo(t.app.ctx.meta).peekCached(userId)).toBeUndefined();
  const failed = await withoutTable('nc_users', () => rawUpgrade(t.base, { origin: t.base, protocols: ['tablo.terminal', `tablo.jwt.${token}`] }));
  expect(failed).toEqual({ status: 500, body: { msg: MSG_INTERNAL, code: 'INTERNAL' } });
});
