/**
 * Cron jobs: a job every second runs and its log fills; pausing stops it; two app instances on one
 * metadata store run each tick once; bad patterns, time zones and headers answer 400 naming them; SQL jobs
 * run on the project's database and report SQL errors; run now answers the run.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { startReceiver, waitFor } from '../helpers/receiver';
import { createApp } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';

describe('cron jobs', () => {
  const rx = startReceiver();
  let t: TestApp;
  let token = '';
  let projectId = '';
  const op = (api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
  const job = async (title: string, action: unknown, pattern = '* * * * * *', extra: Record<string, unknown> = {}) => {
    const res = await op('xcCronCreate', { title, pattern, action, ...extra });
    expect(res.status).toBe(200);
    return res.body as { id: string; next_runs: string[] };
  };
  const logs = async (id: string) => (await op('xcCronLogs', { id })).body.data.list as any[];

  beforeAll(async () => {
    t = await makeTestApp({ apiClientAllowPrivate: true });
    token = (await signupSuperAdmin(t, 'owner@example.com')).token;
    projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Crons' } })).body.id;
    const made = await op('tableCreate', { tn: 'pings', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'note', uidt: 'SingleLineText' }] });
    expect(made.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    rx.stop();
  });

  test('a job every second runs and its log fills; pausing stops it; the list shows next run times', async () => {
    const j = await job('tick', { type: 'url', url: rx.url('/tick'), method: 'POST', body: 'hello' });
    expect(j.next_runs).toHaveLength(5);
    expect(Date.parse(j.next_runs[1]!) - Date.parse(j.next_runs[0]!)).toBe(1000);
    await waitFor('three runs', async () => (await logs(j.id)).filter((r) => r.status === 'success').length >= 3, 8000);
    const first = (await logs(j.id))[0];
    expect(first).toMatchObject({ status: 'success', manual: false, result: 'HTTP 200: ok' });
    expect(typeof first.duration_ms).toBe('number');
    expect(rx.at('/tick')[0]!.body).toBe('hello');
    expect((await op('xcCronUpdate', { id: j.id, active: false })).status).toBe(200);
    const pausedAt = Date.now();
    await Bun.sleep(2500);
    // No tick after the pause runs (a tick due before it may still be taken a moment later on a busy machine).
    expect((await logs(j.id)).filter((r) => Date.parse(r.tick) > pausedAt).map((r) => r.tick)).toEqual([]);
    const listed = (await op('xcCronList')).body.data.list.find((c: any) => c.id === j.id);
    expect(listed).toMatchObject({ active: false, next_runs: [], last_status: 'success', pattern: '* * * * * *', timezone: 'UTC' });
    await op('xcCronDelete', { id: j.id });
  }, 20_000);

  test('two instances on one metadata store run each tick once', async () => {
    const second = createApp(t.config, { meta: t.app.ctx.meta, secrets: t.app.ctx.secrets, dataDir: t.dataDir, log: memoryLogger() });
    try {
      const j = await job('once', { type: 'url', url: rx.url('/once'), method: 'GET' });
      await waitFor('four runs', async () => (await logs(j.id)).filter((r) => r.status !== 'running').length >= 4, 10_000);
      await op('xcCronUpdate', { id: j.id, active: false });
      await Bun.sleep(300);
      const runs = await logs(j.id);
      const ticks = runs.map((r) => r.tick);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(rx.at('/once')).toHaveLength(runs.length);
      await op('xcCronDelete', { id: j.id });
    } finally {
      await second.close();
    }
  }, 20_000);

  test('SQL jobs run on the project database; a failing job is logged and does not stop the others', async () => {
    const good = await job('insert', { type: 'sql', sql: "INSERT INTO pings (note) VALUES ('from cron')", dbAlias: 'db' }, '0 0 1 1 *');
    const ran = await op('xcCronRun', { id: good.id });
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ status: 'success', manual: true, result: '1 row(s) affected' });
    const rows = await t.request('GET', `/nc/${projectId}/api/v1/Pings`, { headers: { 'xc-auth': token } });
    expect(rows.body.map((r: any) => r.Note)).toEqual(['from cron']);
    const read = await job('count', { type: 'sql', sql: 'SELECT COUNT(*) AS n FROM pings' }, '0 0 1 1 *');
    expect((await op('xcCronRun', { id: read.id })).body.result).toContain('1 row(s)');
    const broken = await job('broken', { type: 'sql', sql: 'SELECT * FROM no_such_table' });
    const fine = await job('fine', { type: 'url', url: rx.url('/fine') });
    await waitFor('the broken job failing twice', async () => (await logs(broken.id)).filter((r) => r.status === 'error').length >= 2, 8000);
    await waitFor('the fine job running twice', async () => (await logs(fine.id)).filter((r) => r.status === 'success').length >= 2, 8000);
    expect((await logs(broken.id))[0].error).toMatch(/SQL error: .*no_such_table/);
    for (const id of [good.id, read.id, broken.id, fine.id]) await op('xcCronDelete', { id });
    expect((await op('xcCronList')).body.data.list).toEqual([]);
  }, 20_000);

  test('an HTTP job sends its body typed (JSON or text); a SQL job runs each of its statements in order', async () => {
    const json = await job('json', { type: 'url', url: rx.url('/typed-json'), body: '{"ping": 1}' }, '0 0 1 1 *');
    const text = await job('text', { type: 'url', url: rx.url('/typed-text'), body: 'hello' }, '0 0 1 1 *');
    for (const j of [json, text]) expect((await op('xcCronRun', { id: j.id })).body.status).toBe('success');
    expect(rx.at('/typed-json')[0]!.headers.get('content-type')).toBe('application/json');
    expect(rx.at('/typed-json')[0]!.json).toEqual({ ping: 1 });
    expect(rx.at('/typed-text')[0]!.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const many = await job('many', { type: 'sql', sql: "INSERT INTO pings (note) VALUES ('one');\nINSERT INTO pings (note) VALUES ('two; with a semicolon');\nSELECT COUNT(*) AS n FROM pings WHERE note IN ('one', 'two; with a semicolon')" }, '0 0 1 1 *');
    const ran = (await op('xcCronRun', { id: many.id })).body;
    expect(ran).toMatchObject({ status: 'success', result: '1: 1 row(s) affected\n2: 1 row(s) affected\n3: 1 row(s): [{"n":2}]' });
    const broken = await job('broken twice', { type: 'sql', sql: "INSERT INTO pings (note) VALUES ('three'); SELECT * FROM no_such_table; INSERT INTO pings (note) VALUES ('never')" }, '0 0 1 1 *');
    expect((await op('xcCronRun', { id: broken.id })).body).toMatchObject({ status: 'error', error: expect.stringMatching(/^SQL error in statement 2: .*no_such_table/) });
    const notes = (await t.request('GET', `/nc/${projectId}/api/v1/Pings?limit=100`, { headers: { 'xc-auth': token } })).body.map((r: any) => r.Note);
    expect(notes).toContain('three');
    expect(notes).not.toContain('never');
    // A comment before a SELECT keeps it a read: its rows are the result, not '0 row(s) affected'.
    const commented = await job('commented', { type: 'sql', sql: "-- nightly report\nSELECT COUNT(*) AS n FROM pings WHERE note = 'one';\n/* and */ SELECT 2 AS two" }, '0 0 1 1 *');
    expect((await op('xcCronRun', { id: commented.id })).body).toMatchObject({ status: 'success', result: '1: 1 row(s): [{"n":1}]\n2: 1 row(s): [{"two":2}]' });
    for (const j of [json, text, many, broken, commented]) await op('xcCronDelete', { id: j.id });
  });

  test("a job saved just before its first tick runs at that tick", async () => {
    // Saved in the last tenth of a second before the tick it names (tried again when the save came late).
    let j: { id: string; created_at?: string } | undefined;
    let second = 0;
    for (let attempt = 0; !j && attempt < 5; attempt++) {
      while (Date.now() % 1000 < 920) await Bun.sleep(5);
      const tick = Math.ceil(Date.now() / 1000) * 1000;
      second = new Date(tick).getUTCSeconds();
      const made = (await job('first tick', { type: 'url', url: rx.url('/first-tick') }, `${second} * * * * *`)) as unknown as { id: string; created_at: string };
      if (Date.parse(made.created_at) < tick) j = made;
      else await op('xcCronDelete', { id: made.id });
    }
    if (!j) throw new Error('no job could be saved before its tick');
    const id = j.id;
    const runs = await waitFor('the first tick', async () => ((await logs(id)).length ? logs(id) : null), 3000);
    expect(new Date(runs![0].tick).getUTCSeconds()).toBe(second);
    await op('xcCronDelete', { id });
  });

  test('hooks and cron jobs are for owners and creators: an editor gets 403', async () => {
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': token }, body: { email: 'editor@example.com', roles: 'editor', project_id: projectId } });
    const signupToken = String(invite.body.invite_url).split('/signup/')[1]!;
    const editor = (await t.request('POST', '/auth/signup', { body: { email: 'editor@example.com', password: 'password123', token: signupToken } })).body.token as string;
    for (const [api, args] of [['xcCronList', {}], ['xcCronCreate', { title: 'x', pattern: '* * * * *', action: { type: 'sql', sql: 'DELETE FROM pings' } }], ['xcHookList', { tn: 'pings' }], ['xcHookCreate', { tn: 'pings', title: 'x', event: 'after.insert', notification: { type: 'url', url: rx.url('/x') } }]] as const) {
      const res = await dashboardOp(t, editor, api, { project_id: projectId, args });
      expect(res.status).toBe(403);
    }
  });

  test('bad input answers 400 naming it; unknown jobs and databases 404', async () => {
    const badPattern = await op('xcCronCreate', { title: 'x', pattern: '61 * * * *', action: { type: 'url', url: rx.url('/x') } });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.msg).toContain("'61 * * * *'");
    const fields = await op('xcCronCreate', { title: 'x', pattern: '* * *', action: { type: 'url', url: rx.url('/x') } });
    expect(fields.body.msg).toContain("Invalid cron pattern '* * *'");
    // A cleared time zone field is UTC (it answered 'timezone: Too small: expected string to have >=1 characters').
    expect((await op('xcCronPreview', { pattern: '0 9 * * *', timezone: ' ' })).body.next_runs[0]).toEndWith('T09:00:00.000Z');
    const utc = await op('xcCronCreate', { title: 'no zone', pattern: '0 0 1 1 *', timezone: '', action: { type: 'url', url: rx.url('/x') } });
    expect(utc.body.timezone).toBe('UTC');
    // Editing a job with its title cleared says so as creating one does.
    expect((await op('xcCronUpdate', { id: utc.body.id, title: ' ' })).body).toEqual({ msg: 'The title is required' });
    await op('xcCronDelete', { id: utc.body.id });
    const zone = await op('xcCronCreate', { title: 'x', pattern: '* * * * *', timezone: 'Mars/Olympus', action: { type: 'url', url: rx.url('/x') } });
    expect(zone.status).toBe(400);
    expect(zone.body.msg).toContain('Mars/Olympus');
    expect((await op('xcCronCreate', { title: 'x', pattern: '* * * * *', action: { type: 'url', url: 'not a url' } })).status).toBe(400);
    // A header no request can carry is refused on save (it was kept, and every run failed as 'Could not reach').
    const badHeader = await op('xcCronCreate', { title: 'x', pattern: '0 0 1 1 *', action: { type: 'url', url: rx.url('/x'), headers: { 'bad name': '1' } } });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.msg).toContain("'bad name' is not a valid header name");
    const withKey = await job('keyed', { type: 'url', url: rx.url('/keyed'), headers: { Authorization: 'Bearer k' } }, '0 0 1 1 *');
    const badValue = await op('xcCronUpdate', { id: withKey.id, action: { type: 'url', url: rx.url('/keyed'), headers: { Authorization: 'Bearer k\r\nX-Injected: 1' } } });
    expect(badValue.status).toBe(400);
    expect(badValue.body.msg).toContain("The value of header 'Authorization' cannot be sent");
    expect((await op('xcCronRun', { id: withKey.id })).body.status).toBe('success');
    expect(rx.at('/keyed')[0]!.headers.get('authorization')).toBe('Bearer k');
    await op('xcCronDelete', { id: withKey.id });
    expect((await op('xcCronCreate', { title: 'x', pattern: '* * * * *', action: { type: 'sql', sql: 'SELECT 1', dbAlias: 'nope' } })).status).toBe(404);
    expect((await op('xcCronRun', { id: 'cj_missing' })).status).toBe(404);
    const preview = await op('xcCronPreview', { pattern: '0 9 * * 1', timezone: 'Europe/Berlin' });
    expect(preview.body.next_runs).toHaveLength(5);
    expect(new Date(preview.body.next_runs[0]).getUTCDay()).toBe(1);
    expect((await op('xcCronPreview', { pattern: 'every day' })).status).toBe(400);
    // 31 February parses but never comes: refused on save and in the preview, not kept with no next run.
    for (const [api, args] of [['xcCronCreate', { title: 'never', pattern: '0 0 31 2 *', action: { type: 'url', url: rx.url('/x') } }], ['xcCronPreview', { pattern: '0 0 30 2 *' }]] as const) {
      const never = await op(api, args);
      expect(never.status).toBe(400);
      expect(never.body.msg).toBe(`Invalid cron pattern '${args.pattern}': it never matches a date`);
    }
    const unreachable = await job('dead', { type: 'url', url: 'http://127.0.0.1:1/' }, '0 0 1 1 *');
    expect((await op('xcCronRun', { id: unreachable.id })).body).toMatchObject({ status: 'error', error: expect.stringContaining('Could not reach http://127.0.0.1:1/') });
    await op('xcCronDelete', { id: unreachable.id });
  });

  test("an HTTP job's header values are masked in the list; left masked they keep their value, retyped they change; the owner may read them in full", async () => {
    const key = 'Bearer sk_live_cron_abcd5678';
    const action = { type: 'url', method: 'POST', url: rx.url('/masked'), headers: { Authorization: key, 'X-Short': 'abc' } };
    const made = await job('masked', action, '0 0 1 1 *');
    expect((made as any).action.headers).toEqual({ Authorization: '••••5678', 'X-Short': '••••' });
    const listed = async () => ((await op('xcCronList')).body.data.list as any[]).find((c) => c.id === made.id);
    const first = await listed();
    expect(first.action.headers).toEqual({ Authorization: '••••5678', 'X-Short': '••••' });
    expect(JSON.stringify((await op('xcCronList')).body)).not.toContain('sk_live');
    // Saved again as the list showed it: the stored values stay, and runs carry them.
    expect((await op('xcCronUpdate', { id: made.id, title: 'masked 2', action: first.action })).status).toBe(200);
    expect((await op('xcCronHeaders', { id: made.id })).body.headers).toEqual({ Authorization: key, 'X-Short': 'abc' });
    expect((await op('xcCronRun', { id: made.id })).body.status).toBe('success');
    expect(rx.at('/masked').at(-1)!.headers.get('authorization')).toBe(key);
    const retyped = { ...first.action, headers: { Authorization: 'Bearer rotated_4242', 'X-Short': '••••' } };
    expect((await op('xcCronUpdate', { id: made.id, action: retyped })).status).toBe(200);
    expect((await op('xcCronHeaders', { id: made.id })).body.headers).toEqual({ Authorization: 'Bearer rotated_4242', 'X-Short': 'abc' });
    const renamed = await op('xcCronUpdate', { id: made.id, action: { ...first.action, headers: { 'X-Other': '••••' } } });
    expect(renamed.status).toBe(400);
    expect(renamed.body.msg).toBe("The value of the header 'X-Other' is hidden: type it again");
    const copied = await op('xcCronCreate', { title: 'copy', pattern: '0 0 1 1 *', action: first.action });
    expect(copied.status).toBe(400);
    expect(copied.body.msg).toBe("The value of the header 'Authorization' is hidden: type it again");
    expect((await op('xcCronHeaders', { id: 'cj_nope' })).status).toBe(404);
    await op('xcCronDelete', { id: made.id });
  });

  test('a SQL job on SQLite may not attach the metadata store or any other file', async () => {
    const meta = join(t.dataDir, 'tablo.db');
    for (const sql of [`ATTACH DATABASE '${meta}' AS m`, `SELECT 1; attach '${meta}' as m; SELECT name FROM m.sqlite_master`, `VACUUM INTO '${join(t.dataDir, 'copy.db')}'`]) {
      const res = await op('xcCronCreate', { title: 'reach out', pattern: '0 0 1 1 *', action: { type: 'sql', sql } });
      expect({ sql, res: res.body }).toEqual({ sql, res: { msg: 'The SQL of a cron job cannot attach, detach or write other database files' } });
    }
    // Nor one that came in with an imported archive: it is refused when it runs.
    const manifest = { format: 'tablo-project-meta', formatVersion: 1, tabloVersion: '0.1.0', createdAt: '2026-11-25T00:00:00Z', project: { title: 'X', projectType: 'rest' }, databases: [{ dbAlias: 'db', engine: 'sqlite' }] };
    const crons = [{ title: 'imported', pattern: '0 0 1 1 *', timezone: 'UTC', active: 0, action: { type: 'sql', sql: `ATTACH DATABASE '${meta}' AS m`, dbAlias: 'db' } }];
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'xcMetaTablesImportZipToLocalFsAndDb', project_id: projectId, args: {} }));
    form.set('file', new File([zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)), 'project/crons.json': strToU8(JSON.stringify(crons)) })], 'meta.zip'));
    const imported = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_xcMetaTablesImportZipToLocalFsAndDb', { method: 'POST', headers: { 'xc-auth': token }, body: form }));
    expect(imported.status).toBe(200);
    const [stored] = (await op('xcCronList')).body.data.list;
    expect(stored.title).toBe('imported');
    expect((await op('xcCronRun', { id: stored.id })).body).toMatchObject({ status: 'error', error: 'The SQL of a cron job cannot attach, detach or write other database files' });
    await op('xcCronDelete', { id: stored.id });
  });
});
