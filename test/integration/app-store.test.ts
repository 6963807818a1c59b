/**
 * The App Store against real servers on 127.0.0.1 started here: an SMTP server (smtp-server) gets
 * the invite, password-reset, test and e-mail-hook mails with text and HTML parts; an HTTP receiver
 * gets chat messages; an S3-API server (s3rver) holds uploaded attachments. Secrets are sealed at
 * rest, masked in xcPluginList and absent from the metadata export; the branding is public.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { unzipSync, strFromU8 } from 'fflate';
import { Validator } from '@seriousme/openapi-schema-validator';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { startReceiver, waitFor } from '../helpers/receiver';
import { startSmtp } from '../helpers/smtp';
import { startS3 } from '../helpers/s3';
import { sweepAttachments } from '../../src/attachments/sweep';
import { s3Storage } from '../../src/plugins/storage';
import { createApp } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';
import { join } from 'node:path';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

setDefaultTimeout(30_000);

let t: TestApp;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s3: Awaited<ReturnType<typeof startS3>>;
let receiver: ReturnType<typeof startReceiver>;

const op = (api: string, args: unknown, token = admin, extra: Record<string, unknown> = {}) => dashboardOp(t, token, api, { args, ...extra });
const smtpInput = () => ({ host: '127.0.0.1', port: smtp.port, secure: false, from: 'tablo@example.com', user: '', password: 'smtp-pass-Secret-42' });

beforeAll(async () => {
  [smtp, s3] = await Promise.all([startSmtp(), startS3()]);
  receiver = startReceiver();
  t = await makeTestApp({ publicUrl: 'http://tablo.test', apiClientAllowPrivate: true });
  admin = (await signupSuperAdmin(t, 'admin@example.com')).token;
});
afterAll(async () => {
  await t.close();
  receiver.stop();
  await Promise.all([smtp.stop(), s3.stop()]);
});

describe('plugins', () => {
  test('xcPluginList lists every plugin with its category, status and form fields; Super Admin only', async () => {
    const res = await op('xcPluginList', {});
    expect(res.status).toBe(200);
    const titles = res.body.list.map((p: any) => p.title);
    expect(titles).toEqual(['SMTP', 'Local', 'S3', 'Slack', 'Discord', 'Microsoft Teams', 'Mattermost', 'Branding']);
    const smtpCard = res.body.list.find((p: any) => p.title === 'SMTP');
    expect(smtpCard).toMatchObject({ category: 'Email', active: false, installed: false });
    expect(smtpCard.fields).toContainEqual({ name: 'password', type: 'string', label: 'Password', required: false, secret: true });
    expect(smtpCard.fields).toContainEqual({ name: 'port', type: 'number', label: 'Port', required: false, secret: false, default: 587 });
    expect(res.body.list.find((p: any) => p.title === 'Local').active).toBe(true);

    const project = (await op('projectCreateByWeb', { title: 'Plugins' })).body.id;
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'owner2@example.com', roles: 'owner', project_id: project } });
    const token = String(invite.body.invite_url).split('/signup/')[1];
    const owner2 = (await t.request('POST', '/auth/signup', { body: { email: 'owner2@example.com', password: 'password123', token } })).body.token;
    for (const api of ['xcPluginList', 'xcPluginSet', 'xcPluginTest', 'xcPluginSecrets']) {
      const r = await op(api, { title: 'SMTP', input: smtpInput() }, owner2);
      expect(r.status).toBe(403);
      expect(r.body.msg).toBe('Only the Super Admin manages the App Store');
    }
  });

  test('bad input answers 400 naming the field; unknown plugins 404', async () => {
    const bad = await op('xcPluginSet', { title: 'SMTP', input: { host: '127.0.0.1', port: 'x', from: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^(Port|From address): /);
    // A required field left empty is named as missing (not as a type error of the form's empty value).
    for (const [input, msg] of [[{ host: '', from: 'a@example.com' }, 'Host is required'], [{ host: '127.0.0.1' }, 'From address is required']] as const) {
      for (const api of ['xcPluginSet', 'xcPluginTest']) {
        const res = await op(api, { title: 'SMTP', input });
        expect({ api, status: res.status, msg: res.body.msg }).toEqual({ api, status: 400, msg });
      }
    }
    expect((await op('xcPluginSet', { title: 'Fax', input: {} })).status).toBe(404);
    const s3bad = await op('xcPluginSet', { title: 'S3', input: { endpoint: 'ftp://x', bucket: 'b', accessKeyId: 'a', secretAccessKey: 's' } });
    expect(s3bad.status).toBe(400);
  });

  test('S3 Test and S3 calls against a store that is down or never answers say so, and a short bucket name is not called missing', async () => {
    const input = (endpoint: string, bucket = 'files') => ({ endpoint, bucket, accessKeyId: 'key', secretAccessKey: 'secret' });
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const downUrl = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const down = await op('xcPluginTest', { title: 'S3', input: input(downUrl) });
    expect(down.body).toEqual({ msg: `S3 test failed: could not reach ${downUrl}: the connection was refused` });
    // Takes the connection, never answers: the Test ends after its 10 s with a reason.
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const hung = await op('xcPluginTest', { title: 'S3', input: input(`http://127.0.0.1:${silent.port}`) });
      expect(hung).toMatchObject({ status: 400, body: { msg: 'S3 test failed: no answer within 10 s' } });
    } finally {
      silent.stop(true);
    }
    // An upload to a store that never answers fails after the storage's time limit instead of waiting for good.
    const mute = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const endpoint = `http://127.0.0.1:${mute.port}`;
      const store = s3Storage({ ...input(endpoint), region: 'us-east-1', pathStyle: true, prefix: '' }, 300);
      for (const call of [() => store.put('a.txt', new Blob(['x']), 'text/plain'), () => store.get('a.txt'), () => store.delete('a.txt')]) {
        await expect(call()).rejects.toThrow(`could not reach ${endpoint}: no answer within 0.3 s`);
      }
    } finally {
      mute.stop(true);
    }
    expect((await op('xcPluginTest', { title: 'S3', input: input(downUrl, 'ab') })).body).toEqual({ msg: 'Bucket: A bucket name has 3 to 63 characters' });
    expect((await op('xcPluginTest', { title: 'S3', input: { ...input(downUrl), bucket: '' } })).body.msg).toBe('Bucket is required');
  });

  test('SMTP: Test sends a mail; with the plugin on, the invite and the password reset are mailed with text and HTML parts', async () => {
    const tested = await op('xcPluginTest', { title: 'SMTP', input: smtpInput(), to: 'check@example.com' });
    expect(tested.status).toBe(200);
    const testMail = await waitFor('the test mail', () => smtp.to('check@example.com')[0]);
    expect(testMail.subject).toBe('Tablo: SMTP test');
    expect(testMail.from).toBe('tablo@example.com');

    const failing = await op('xcPluginTest', { title: 'SMTP', input: { ...smtpInput(), port: 1 }, to: 'check@example.com' });
    expect(failing.status).toBe(400);
    expect(failing.body.msg).toMatch(/^SMTP test failed: /);

    expect((await op('xcPluginSet', { title: 'SMTP', input: smtpInput(), active: true })).status).toBe(200);
    const project = (await op('projectCreateByWeb', { title: 'Mail project' })).body.id;
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'newcomer@example.com', roles: 'editor', project_id: project } });
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual({ msg: 'The invite was sent by e-mail to newcomer@example.com', email: 'newcomer@example.com', mailed: true });
    const mail = await waitFor('the invite mail', () => smtp.to('newcomer@example.com')[0]);
    expect(mail.subject).toBe("Tablo: you are invited to 'Mail project'");
    const link = /http:\/\/tablo\.test\/#\/user\/authentication\/signup\/[\w-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('admin@example.com invited you');
    // The link in the mail works.
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'newcomer@example.com', password: 'password123', token: link!.split('/signup/')[1] } });
    expect(signup.status).toBe(200);
    expect(t.log.lines.some((l) => l.includes('invite link for newcomer@example.com'))).toBe(false);

    expect((await t.request('POST', '/auth/password/forgot', { body: { email: 'newcomer@example.com' } })).status).toBe(200);
    const reset = (await waitFor('the reset mail', () => smtp.to('newcomer@example.com').find((m) => m.subject.includes('reset'))))!;
    const resetLink = /http:\/\/tablo\.test\/#\/user\/password\/reset\?token=([\w-]+)/.exec(reset.text);
    expect(resetLink).not.toBeNull();
    expect(reset.html).toContain('Reset the password');
    expect((await t.request('POST', `/auth/password/reset/${resetLink![1]}`, { body: { password: 'another-pass-1' } })).status).toBe(200);

    // An existing account added to another project is told by mail where it is (no sign-up link).
    const other = (await op('projectCreateByWeb', { title: 'Second project' })).body.id;
    const added = await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'newcomer@example.com', roles: 'viewer', project_id: other } });
    expect(added.body).toEqual({ msg: 'newcomer@example.com was added to the project and told by e-mail', email: 'newcomer@example.com', mailed: true });
    const told = (await waitFor('the added mail', () => smtp.to('newcomer@example.com').find((m) => m.subject.includes('added'))))!;
    expect(told.subject).toBe("Tablo: you were added to 'Second project'");
    expect(told.text).toContain(`admin@example.com added you to the project 'Second project' as viewer.`);
    expect(told.text).toContain(`http://tablo.test/#/nc/${other}`);
    expect(told.text).not.toContain('/signup/');
  });

  test('e-mail hooks go through the SMTP plugin; chat hooks without a URL post to the chat plugin channel', async () => {
    const project = (await op('projectCreateByWeb', { title: 'Hooks project', inflectionColumn: 'none' })).body.id;
    const call = (api: string, args: unknown) => dashboardOp(t, admin, api, { project_id: project, args, plus: true });
    expect((await call('tableCreate', { tn: 'note', _tn: 'Notes', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'title', uidt: 'SingleLineText' }] })).status).toBe(200);
    expect((await op('xcPluginSet', { title: 'Discord', input: { webhookUrl: receiver.url('/discord') }, active: true })).status).toBe(200);
    expect((await op('xcPluginTest', { title: 'Discord', input: {} })).status).toBe(200);
    expect(receiver.at('/discord')[0]!.json).toEqual({ content: 'Tablo: a test message from the App Store' });
    const mk = (title: string, notification: unknown) => call('xcHookCreate', { tn: 'note', title, event: 'after.insert', notification });
    const h1 = await mk('mail', { type: 'email', to: 'team@example.com', subject: 'New {{ data.title }}', body: 'A note <{{ data.title }}> was added' });
    expect(h1.status).toBe(200);
    expect((await mk('chat', { type: 'discord', body: 'note {{ data.title }}' })).status).toBe(200);
    expect((await t.request('POST', `/nc/${project}/api/v1/note`, { headers: { 'xc-auth': admin }, body: { title: 'Hello' } })).status).toBe(200);
    const hookMail = await waitFor('the hook mail', () => smtp.to('team@example.com')[0]);
    expect(hookMail.subject).toBe('New Hello');
    expect(hookMail.text.trim()).toBe('A note <Hello> was added');
    expect(hookMail.html).toContain('A note &lt;Hello&gt; was added');
    const chat = (await waitFor('the chat message', () => receiver.at('/discord').find((r) => r.json?.content === 'note Hello')))!;
    expect(chat.method).toBe('POST');
  });

  test('secrets are sealed at rest, masked in every answer, kept when the mask is sent back, and never exported', async () => {
    const list = (await op('xcPluginList', {})).body.list;
    const card = list.find((p: any) => p.title === 'SMTP');
    expect(card).toMatchObject({ installed: true, active: true });
    expect(card.input.password).toBe('••••••••');
    expect(card.input.host).toBe('127.0.0.1');
    expect(list.find((p: any) => p.title === 'Discord').input.webhookUrl).toBe('••••••••');
    const raw = await t.app.ctx.meta.all<{ input: string }>('SELECT input FROM nc_plugins');
    expect(raw.map((r) => r.input).join()).not.toContain('smtp-pass-Secret-42');
    expect(raw.map((r) => r.input).join()).not.toContain('/discord');
    // Saving with the mask keeps the stored password (a test with it still works against the server).
    expect((await op('xcPluginSet', { title: 'SMTP', input: { ...card.input, from: 'robot@example.com' } })).status).toBe(200);
    const row = await t.app.ctx.meta.get<{ input: string }>("SELECT input FROM nc_plugins WHERE title = 'SMTP'");
    expect(JSON.parse(row!.input).password.sealed).toMatch(/^v1:/);
    expect((await op('xcPluginTest', { title: 'SMTP', input: { ...card.input, from: 'robot@example.com' }, to: 'again@example.com' })).status).toBe(200);
    expect((await waitFor('the mail', () => smtp.to('again@example.com')[0])).from).toBe('robot@example.com');

    const project = (await op('projectCreateByWeb', { title: 'Export project' })).body.id;
    const res = await t.app.handle(
      new Request('http://localhost/dashboard?q=sqlOp_xcMetaTablesExportDbToZip', {
        method: 'POST',
        headers: { 'xc-auth': admin, 'content-type': 'application/json' },
        body: JSON.stringify({ api: 'xcMetaTablesExportDbToZip', project_id: project }),
      }),
    );
    expect(res.status).toBe(200);
    const text = Object.values(unzipSync(new Uint8Array(await res.arrayBuffer()))).map((f) => strFromU8(f)).join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of ['smtp-pass-Secret-42', '/discord', 'S3RVER', 'nc_plugins']) expect(text).not.toContain(secret);
  });

  test("a chat plugin's webhook URL, masked in the list, is shown in full to the Super Admin who asks (Show values); no other secret is", async () => {
    const url = receiver.url('/mattermost/hooks/xyz-Token-1234');
    expect((await op('xcPluginSet', { title: 'Mattermost', input: { webhookUrl: url }, active: true })).status).toBe(200);
    expect((await op('xcPluginList', {})).body.list.find((p: any) => p.title === 'Mattermost').input.webhookUrl).toBe('••••••••');
    expect((await op('xcPluginSecrets', { title: 'Mattermost' })).body).toEqual({ input: { webhookUrl: url } });
    // Saved again with what Show values read, it keeps the same URL.
    expect((await op('xcPluginSet', { title: 'Mattermost', input: { webhookUrl: url } })).status).toBe(200);
    expect((await op('xcPluginSecrets', { title: 'Mattermost' })).body).toEqual({ input: { webhookUrl: url } });
    for (const [args, status, msg] of [
      [{ title: 'SMTP' }, 400, 'The secrets of the SMTP plugin are never shown: type them again to change them'],
      [{ title: 'Slack' }, 404, 'The Slack plugin is not installed'],
      [{ title: 'Fax' }, 404, "Unknown plugin 'Fax'"],
      [{}, 400, undefined],
    ] as const) {
      const res = await op('xcPluginSecrets', args);
      expect({ args, status: res.status }).toEqual({ args, status });
      if (msg) expect(res.body.msg).toBe(msg);
    }
    expect((await op('xcPluginSet', { title: 'Mattermost', input: null })).status).toBe(200);
  });

  test('branding: public title and logo (URL or upload) for the sign-in page', async () => {
    expect((await t.request('GET', '/api/branding')).body).toEqual({ title: null, logoUrl: null });
    expect((await op('xcPluginSet', { title: 'Branding', input: { title: 'Acme Data', logoUrl: 'https://example.com/logo.png' } })).status).toBe(200);
    expect((await t.request('GET', '/api/branding')).body).toEqual({ title: 'Acme Data', logoUrl: 'https://example.com/logo.png' });
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'xcPluginSet', args: { title: 'Branding', input: { title: 'Acme Data' } } }));
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    form.set('file', new File([png], 'logo.png', { type: 'image/png' }));
    const up = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_xcPluginSet', { method: 'POST', headers: { 'xc-auth': admin }, body: form }));
    expect(up.status).toBe(200);
    const b = (await t.request('GET', '/api/branding')).body;
    expect(b.logoUrl).toMatch(/^\/api\/branding\/logo\?v=\d+$/);
    const logo = await t.app.handle(new Request(`http://localhost${b.logoUrl}`));
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(png);
    // Uninstalling turns it off.
    expect((await op('xcPluginSet', { title: 'Branding', input: null })).status).toBe(200);
    expect((await t.request('GET', '/api/branding')).body).toEqual({ title: null, logoUrl: null });
  });
  test('when the SMTP server cannot be reached the invite answers the link with the mail error, and logs the link', async () => {
    expect((await op('xcPluginSet', { title: 'SMTP', input: { ...smtpInput(), port: 1 } })).status).toBe(200);
    const project = (await op('projectCreateByWeb', { title: 'Unreachable mail' })).body.id;
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'lost@example.com', roles: 'viewer', project_id: project } });
    expect(invite.status).toBe(200);
    expect(invite.body.invite_url).toMatch(/#\/user\/authentication\/signup\/[\w-]+$/);
    expect(invite.body.mail_error).toStartWith('The mail to lost@example.com could not be sent: ');
    expect(t.log.lines.some((l) => l.includes('invite link for lost@example.com'))).toBe(true);
    expect((await op('xcPluginSet', { title: 'SMTP', input: smtpInput() })).status).toBe(200);
  });

  test('a second instance on the same metadata store applies a plugin change within a second or so', async () => {
    const second = createApp(t.config, { meta: t.app.ctx.meta, secrets: t.app.ctx.secrets, dataDir: t.dataDir, log: memoryLogger() });
    try {
      const branding = async () => (await (await second.handle(new Request('http://localhost/api/branding'))).json()) as { title: string | null };
      await waitFor('the second instance to start', async () => (await branding()).title === null);
      expect((await op('xcPluginSet', { title: 'Branding', input: { title: 'Shared Title' } })).status).toBe(200);
      await waitFor('the second instance to see the branding', async () => (await branding()).title === 'Shared Title', 5000);
      expect((await op('xcPluginSet', { title: 'Branding', input: null })).status).toBe(200);
      await waitFor('the second instance to see it removed', async () => (await branding()).title === null, 5000);
    } finally {
      await second.close();
    }
  });
});

describe('e-mail hooks when the mail server refuses', () => {
  test('a temporary refusal (4xx) is retried and then delivered; a refusal for good (5xx) is not retried; neither reads as a template error', async () => {
    const a = await makeTestApp({ hookRetryBaseMs: 20, hookPollMs: 20 });
    try {
      const token = (await signupSuperAdmin(a, 'mail-admin@example.com')).token;
      const call = (api: string, args: unknown, project_id?: string) => dashboardOp(a, token, api, { args, project_id, plus: true });
      expect((await call('xcPluginSet', { title: 'SMTP', input: smtpInput(), active: true })).status).toBe(200);
      const project = (await call('projectCreateByWeb', { title: 'Refused mail' })).body.id;
      expect((await call('tableCreate', { tn: 'note', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }] }, project)).status).toBe(200);
      const hook = (await call('xcHookCreate', { tn: 'note', title: 'mail', event: 'after.insert', notification: { type: 'email', to: 'later@example.com', subject: '{{ data.Title }}', body: 'b' } }, project)).body;
      const logs = async () => (await call('xcHookLogs', { id: hook.id }, project)).body.data.list as any[];
      const write = (title: string) => a.request('POST', `/nc/${project}/api/v1/note`, { headers: { 'xc-auth': token }, body: { Title: title } });

      smtp.refuseNext(451, 'Try again later');
      expect((await write('retried')).status).toBe(200);
      await waitFor('the mail on its second attempt', () => smtp.to('later@example.com').find((m) => m.subject === 'retried'));
      const attempts = (await waitFor('both attempts logged', async () => ((await logs()).filter((l) => l.attempt > 0).length === 2 ? logs() : null)))!;
      expect(attempts.map((l) => [l.attempt, l.status])).toEqual([[2, 'success'], [1, 'pending']]);
      expect(attempts[1].error).toMatch(/^The e-mail could not be sent: .*451/);

      smtp.refuseNext(550, 'No such mailbox');
      expect((await write('refused')).status).toBe(200);
      const refused = await waitFor('the refused delivery', async () => (await logs()).find((l) => l.status === 'error'));
      expect(refused).toMatchObject({ attempt: 1, error: expect.stringMatching(/^The e-mail could not be sent: .*550/) });
      await Bun.sleep(200);
      expect((await logs()).filter((l) => l.attempt > 0)).toHaveLength(3);
      expect(smtp.to('later@example.com').map((m) => m.subject)).toEqual(['retried']);
      await call('xcPluginSet', { title: 'SMTP', input: null });
    } finally {
      await a.close();
    }
  });
});

describe('S3 storage', () => {
  test('uploads go to the S3 bucket, are read through a short-lived signed URL, and are swept after the row is deleted', async () => {
    const input = { endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, pathStyle: true };
    expect((await op('xcPluginTest', { title: 'S3', input })).status).toBe(200);
    expect((await op('xcPluginTest', { title: 'S3', input: { ...input, bucket: 'no-such-bucket' } })).status).toBe(400);
    expect((await op('xcPluginSet', { title: 'S3', input, active: true })).status).toBe(200);
    const list = (await op('xcPluginList', {})).body.list;
    expect(list.find((p: any) => p.title === 'S3')).toMatchObject({ active: true, input: { secretAccessKey: '••••••••' } });
    expect(list.find((p: any) => p.title === 'Local').active).toBe(false);

    const project = (await op('projectCreateByWeb', { title: 'S3 project', inflectionColumn: 'none' })).body.id;
    const call = (api: string, args: unknown) => dashboardOp(t, admin, api, { project_id: project, args, plus: true });
    expect((await call('tableCreate', { tn: 'doc', _tn: 'Docs', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'files', uidt: 'Attachment' }] })).status).toBe(200);
    const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${project}/api/v1/${path}`, { headers: { 'xc-auth': admin }, body });
    const row = (await rest('POST', 'doc', {})).body;
    const form = new FormData();
    form.append('files', new File(['hello from s3'], 'hello.txt', { type: 'text/plain' }));
    const up = await t.app.handle(new Request(`http://localhost/nc/${project}/api/v1/doc/${row.id}/attachments/files`, { method: 'POST', headers: { 'xc-auth': admin }, body: form }));
    const upBody = (await up.json()) as any;
    expect(up.status, JSON.stringify(upBody)).toBe(200);
    const file = upBody.uploaded[0];
    expect(await s3.text(file.path)).toBe('hello from s3');
    const got = await t.app.handle(new Request(`http://localhost/nc/${project}/api/v1/doc/${row.id}/attachments/files/${file.id}`, { headers: { 'xc-auth': admin } }));
    expect(got.status).toBe(302);
    const signed = got.headers.get('location')!;
    expect(signed).toStartWith(`${s3.endpoint}/${s3.bucket}/`);
    expect(signed).toContain('X-Amz-Expires=300');
    expect(await (await fetch(signed)).text()).toBe('hello from s3');

    expect((await rest('DELETE', `doc/${row.id}`)).status).toBe(200);
    expect(await s3.exists(file.path)).toBe(true);
    const swept = await sweepAttachments(t.app.ctx, { all: true });
    expect(swept.removed).toBeGreaterThanOrEqual(1);
    expect(await s3.exists(file.path)).toBe(false);
    // Back to local storage for the other tests.
    expect((await op('xcPluginSet', { title: 'S3', input: null })).status).toBe(200);
  });
});

describeEngines('attachments', (engine: TestEngine) => {
  const name = `tablo_t_appstore_${engine}`;
  let a: TestApp;
  let root: string;
  let viewer: string;
  let projectId: string;
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

  const upload = async (token: string, id: string, files: File[], column = 'files') => {
    const form = new FormData();
    for (const f of files) form.append('file', f);
    const res = await a.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/item/${id}/attachments/${column}`, { method: 'POST', headers: { 'xc-auth': token }, body: form }));
    return { status: res.status, body: (await res.json()) as any };
  };
  const fileUrl = (id: string, fileId: string) => `http://localhost/nc/${projectId}/api/v1/item/${id}/attachments/files/${fileId}`;
  const get = (token: string, url: string) => a.app.handle(new Request(url, { headers: { 'xc-auth': token } }));
  const rest = (method: string, path: string, body?: unknown) => a.request(method, `/nc/${projectId}/api/v1/${path}`, { headers: { 'xc-auth': root }, body });
  const stored = (path: string) => Bun.file(join(a.dataDir, 'attachments', path)).exists();

  beforeAll(async () => {
    a = await makeTestApp({ attachmentMaxBytes: 1000, attachmentSweepMs: 0 });
    root = (await signupSuperAdmin(a)).token;
    const cfg = await freshDatabase(engine, name);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(a.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
    }
    const res = await dashboardOp(a, root, 'projectCreateByWeb', { args: { title: `Files ${engine}`, inflectionColumn: 'none', db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    projectId = res.body.id;
    const call = (api: string, args: unknown) => dashboardOp(a, root, api, { project_id: projectId, args, plus: true });
    const made = await call('tableCreate', {
      tn: 'item',
      _tn: 'item',
      columns: [
        { cn: 'id', uidt: 'ID', pk: true, ai: true },
        { cn: 'owner', uidt: 'SingleLineText' },
        { cn: 'files', uidt: 'Attachment', meta: { maxFiles: 2, accept: 'image/*, .txt' } },
        { cn: 'title', uidt: 'SingleLineText' },
      ],
    });
    if (made.status !== 200) throw new Error(made.text);
    const rule = await call('aclSave', { tn: 'item', role: 'viewer', rule: { read: true, create: false, update: false, delete: false, where: '(owner,eq,$user.email)' } });
    if (rule.status !== 200) throw new Error(rule.text);
    const invite = await a.request('POST', '/admin', { headers: { 'xc-auth': root }, body: { email: 'viewer@example.com', roles: 'viewer', project_id: projectId } });
    const token = String(invite.body.invite_url).split('/signup/')[1];
    viewer = (await a.request('POST', '/auth/signup', { body: { email: 'viewer@example.com', password: 'password123', token } })).body.token;
    await rest('POST', 'item', { owner: 'viewer@example.com' });
    await rest('POST', 'item', { owner: 'someone@example.com' });
  });
  afterAll(async () => {
    await a.close();
    await dropDatabase(engine, name);
  });

  test('several files in one upload become the cell value; the viewer reads files of rows in their rule only', async () => {
    const up = await upload(root, '1', [new File([png], 'pic.png', { type: 'image/png' }), new File(['notes'], 'notes.txt', { type: 'text/plain' })]);
    expect(up.status).toBe(200);
    expect(up.body.uploaded).toHaveLength(2);
    expect(up.body.uploaded[0]).toMatchObject({ title: 'pic.png', mimetype: 'image/png', size: png.length });
    expect(up.body.uploaded[0].id).toMatch(/^fl_/);
    const cell = (await rest('GET', 'item/1')).body.files;
    expect((typeof cell === 'string' ? JSON.parse(cell) : cell).map((f: any) => f.title)).toEqual(['pic.png', 'notes.txt']);
    expect(await stored(up.body.uploaded[0].path)).toBe(true);
    const other = await upload(root, '2', [new File([png], 'secret.png', { type: 'image/png' })]);
    expect(other.status).toBe(200);

    const mine = await get(viewer, fileUrl('1', up.body.uploaded[0].id));
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/png');
    expect(mine.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(png);
    // A row outside the viewer's rule: 404, by its own URL or by naming its file under a readable row.
    expect((await get(viewer, fileUrl('2', other.body.uploaded[0].id))).status).toBe(404);
    expect((await get(viewer, fileUrl('1', other.body.uploaded[0].id))).status).toBe(404);
    expect((await a.app.handle(new Request(fileUrl('1', up.body.uploaded[0].id)))).status).toBe(401);
    // A short-lived link an <img> can load without headers; a changed signature is refused.
    const link = (await (await get(viewer, `${fileUrl('1', up.body.uploaded[0].id)}?link=1`)).json()) as any;
    expect(link.url).toMatch(/^\/api\/files\/fl_\w+\?exp=\d+&sig=/);
    expect((await a.app.handle(new Request(`http://localhost${link.url}`))).status).toBe(200);
    // The signature's first character changed (to one it is not).
    const forged = link.url.replace(/sig=(.)/, (_: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await a.app.handle(new Request(`http://localhost${forged}`))).status).toBe(404);
    // The viewer may not upload.
    expect((await upload(viewer, '1', [new File([png], 'x.png', { type: 'image/png' })])).status).toBe(403);
  });

  test('the OpenAPI document describes the upload and read routes of the Attachment column', async () => {
    const res = await a.request('GET', `/nc/${projectId}/docs/openapi.json?dbAlias=db`, { headers: { 'xc-auth': root } });
    expect(res.status).toBe(200);
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    const upload = res.body.paths['/api/v1/item/{id}/attachments/files'].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '404', '413']));
    expect(res.body.paths['/api/v1/item/{id}/attachments/files/{fileId}'].get.responses['302']).toBeDefined();
    expect(res.body.paths['/api/v1/item/{id}/attachments/title']).toBeUndefined();
  });

  test('refusals: too big 413, wrong type 400, too many files 400, path tricks sanitised or refused', async () => {
    const big = await upload(root, '2', [new File([new Uint8Array(1001)], 'big.png', { type: 'image/png' })]);
    expect(big.status).toBe(413);
    expect(big.body.msg).toBe("'big.png' is larger than the limit of 1000 bytes");
    const zip = await upload(root, '2', [new File(['PK'], 'x.zip', { type: 'application/zip' })]);
    expect(zip.status).toBe(400);
    expect(zip.body.msg).toContain('accepts only image/*, .txt');
    const many = await upload(root, '1', [new File([png], 'third.png', { type: 'image/png' })]);
    expect(many.status).toBe(400);
    expect(many.body.msg).toContain('holds at most 2 files');
    const trick = await upload(root, '2', [new File(['x'], '../../../keys/evil.txt', { type: 'text/plain' })]);
    expect(trick.status).toBe(200);
    expect(trick.body.uploaded[0].title).toBe('evil.txt');
    expect(trick.body.uploaded[0].path).toBe(`${projectId}/${trick.body.uploaded[0].id}/evil.txt`);
    expect(await stored(trick.body.uploaded[0].path)).toBe(true);
    expect((await upload(root, '2', [new File(['x'], '..', { type: 'text/plain' })])).status).toBe(400);
    expect((await upload(root, '2', [])).status).toBe(400);
    expect((await upload(root, '2', [new File(['x'], 'a.txt')], 'title')).status).toBe(400);
    expect((await upload(root, '2', [new File(['x'], 'a.txt')], 'nope')).status).toBe(404);
    expect((await upload(root, '99', [new File(['x'], 'a.txt', { type: 'text/plain' })])).status).toBe(404);
  });

  test('a removed file and the files of a deleted row leave storage at the next sweep, not before', async () => {
    const row = (await rest('GET', 'item/1')).body;
    const files = typeof row.files === 'string' ? JSON.parse(row.files) : row.files;
    expect((await rest('PUT', 'item/1', { files: [files[0]] })).status).toBe(200);
    expect(await stored(files[1].path)).toBe(true);
    await sweepAttachments(a.app.ctx, { all: true });
    expect(await stored(files[1].path)).toBe(false);
    expect(await stored(files[0].path)).toBe(true);
    expect((await get(root, fileUrl('1', files[1].id))).status).toBe(404);

    expect((await rest('DELETE', 'item/1')).status).toBe(200);
    expect(await stored(files[0].path)).toBe(true);
    // The delete flagged the table: a sweep of the flagged files alone finds it.
    await waitFor('the table flagged', async () => (await a.app.ctx.meta.get<{ n: number }>('SELECT COUNT(*) AS n FROM nc_files WHERE check_due = 1'))!.n > 0);
    const r = await sweepAttachments(a.app.ctx);
    expect(r.removed).toBe(1);
    expect(await stored(files[0].path)).toBe(false);
    const left = await a.app.ctx.meta.all<{ name: string }>('SELECT name FROM nc_files WHERE project_id = ? ORDER BY name', [projectId]);
    expect(left.map((f) => f.name)).toEqual(['evil.txt', 'secret.png']);
  });

  test('renaming the table and the column through Tablo keeps the stored files; dropping the column sweeps them', async () => {
    const call = async (api: string, args: unknown) => {
      const res = await dashboardOp(a, root, api, { project_id: projectId, args, plus: true });
      if (res.status !== 200) throw new Error(`${api}: ${res.text}`);
      return res.body;
    };
    await call('columnUpdate', { tn: 'item', cn: 'files', column: { cn: 'docs', _cn: 'docs' } });
    await call('tableRename', { tn: 'item', newTn: 'thing', _tn: 'thing' });
    const r = await sweepAttachments(a.app.ctx, { all: true });
    expect(r.removed).toBe(0);
    const row = (await a.request('GET', `/nc/${projectId}/api/v1/thing/2`, { headers: { 'xc-auth': root } })).body;
    const files = typeof row.docs === 'string' ? JSON.parse(row.docs) : row.docs;
    expect(files.map((f: any) => f.title)).toEqual(['secret.png', 'evil.txt']);
    const res = await get(root, `http://localhost/nc/${projectId}/api/v1/thing/2/attachments/docs/${files[0].id}`);
    expect(res.status).toBe(200);
    expect(await stored(files[1].path)).toBe(true);
    await call('columnDelete', { tn: 'thing', cn: 'docs' });
    expect((await sweepAttachments(a.app.ctx)).removed).toBe(2);
    expect(await stored(files[0].path)).toBe(false);
    expect(await stored(files[1].path)).toBe(false);
  });

  test('names with quotes, semicolons, line breaks and non-ASCII letters are kept and downloaded under a safe header', async () => {
    const made = await dashboardOp(a, root, 'tableCreate', { project_id: projectId, plus: true, args: { tn: 'named', _tn: 'named', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'files', uidt: 'Attachment' }] } });
    expect(made.status, made.text).toBe(200);
    const row = (await rest('POST', 'named', {})).body;
    const form = new FormData();
    // FormData sends the quote as %22 and the line break as %0A, as browsers do.
    form.append('file', new File(['one'], 'say "hi"; 客户 Año.txt', { type: 'text/plain' }));
    form.append('file', new File(['two'], 'line\nbreak.bin'));
    const res = await a.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/named/${row.id}/attachments/files`, { method: 'POST', headers: { 'xc-auth': root }, body: form }));
    const up = (await res.json()) as any;
    expect(res.status, JSON.stringify(up)).toBe(200);
    expect(up.uploaded.map((f: any) => f.title)).toEqual(['say "hi"; 客户 Año.txt', 'line_break.bin']);
    expect(up.uploaded[0].path).toBe(`${projectId}/${up.uploaded[0].id}/say _hi_; 客户 Año.txt`);
    expect(await stored(up.uploaded[0].path)).toBe(true);
    const cell = (await rest('GET', `named/${row.id}`)).body.files;
    expect((typeof cell === 'string' ? JSON.parse(cell) : cell).map((f: any) => f.title)).toEqual(['say "hi"; 客户 Año.txt', 'line_break.bin']);

    const url = (f: any) => `http://localhost/nc/${projectId}/api/v1/named/${row.id}/attachments/files/${f.id}`;
    const text = await get(root, url(up.uploaded[0]));
    expect(text.status).toBe(200);
    expect(await text.text()).toBe('one');
    const header = text.headers.get('content-disposition')!;
    expect(header).toBe(`inline; filename="say _hi__ __ A_o.txt"; filename*=UTF-8''say%20%22hi%22%3B%20%E5%AE%A2%E6%88%B7%20A%C3%B1o.txt`);
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe('say "hi"; 客户 Año.txt');
    const bin = await get(root, url(up.uploaded[1]));
    expect(bin.headers.get('content-disposition')).toBe(`attachment; filename="line_break.bin"; filename*=UTF-8''line_break.bin`);
    // The signed link an <img> loads answers the same header.
    const link = (await (await get(root, `${url(up.uploaded[0])}?link=1`)).json()) as any;
    expect(link.title).toBe('say "hi"; 客户 Año.txt');
    expect((await a.app.handle(new Request(`http://localhost${link.url}`))).headers.get('content-disposition')).toBe(header);

    // A client that escapes the quote with a backslash (older curl) names the same file.
    const body = `--B\r\nContent-Disposition: form-data; name="file"; filename="it\\"s (1).txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n`;
    const raw = await a.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/named/${row.id}/attachments/files`, { method: 'POST', headers: { 'xc-auth': root, 'content-type': 'multipart/form-data; boundary=B' }, body }));
    const rawUp = (await raw.json()) as any;
    expect(raw.status, JSON.stringify(rawUp)).toBe(200);
    expect(rawUp.uploaded[0].title).toBe('it"s (1).txt');
    const quoted = await get(root, url(rawUp.uploaded[0]));
    expect(quoted.headers.get('content-disposition')).toBe(`inline; filename="it_s (1).txt"; filename*=UTF-8''it%22s%20%281%29.txt`);
  });
});

describe('deleted projects', () => {
  test("the files of a deleted project leave storage at the next sweep", async () => {
    const project = (await op('projectCreateByWeb', { title: 'Short-lived', inflectionColumn: 'none' })).body.id;
    const call = (api: string, args: unknown) => dashboardOp(t, admin, api, { project_id: project, args, plus: true });
    expect((await call('tableCreate', { tn: 'doc', _tn: 'doc', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'files', uidt: 'Attachment' }] })).status).toBe(200);
    expect((await t.request('POST', `/nc/${project}/api/v1/doc`, { headers: { 'xc-auth': admin }, body: {} })).status).toBe(200);
    const form = new FormData();
    form.append('file', new File(['bye'], 'bye.txt', { type: 'text/plain' }));
    const up = await t.app.handle(new Request(`http://localhost/nc/${project}/api/v1/doc/1/attachments/files`, { method: 'POST', headers: { 'xc-auth': admin }, body: form }));
    expect(up.status).toBe(200);
    const path = join(t.dataDir, 'attachments', ((await up.json()) as any).uploaded[0].path);
    expect(await Bun.file(path).exists()).toBe(true);
    expect((await dashboardOp(t, admin, 'projectDelete', { project_id: project })).status).toBe(200);
    expect(await Bun.file(path).exists()).toBe(true);
    await sweepAttachments(t.app.ctx, { all: true });
    expect(await Bun.file(path).exists()).toBe(false);
  });
});
