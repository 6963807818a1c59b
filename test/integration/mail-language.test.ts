/**
 * Tablo's own mails in the language of the screen they were asked from (the web app sends its
 * language as Accept-Language): an invite, an "added to a project" notice, a password reset and the
 * SMTP plugin's test mail reach a real SMTP server on 127.0.0.1 in French, Chinese, Spanish or
 * Portuguese, with links that work; no header or an unknown language gives English. A chat plugin's
 * Test message reaches an HTTP receiver on 127.0.0.1 in the same way.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { startReceiver, waitFor } from '../helpers/receiver';
import { startSmtp } from '../helpers/smtp';
import { mailLanguageOf } from '../../src/lib/mail-language';

setDefaultTimeout(30_000);

let t: TestApp;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

const op = (api: string, args: unknown, headers: Record<string, string> = {}) => dashboardOp(t, admin, api, { args, headers });

beforeAll(async () => {
  smtp = await startSmtp();
  t = await makeTestApp({ publicUrl: 'http://tablo.test' });
  admin = (await signupSuperAdmin(t, 'admin@example.com')).token;
  const input = { host: '127.0.0.1', port: smtp.port, secure: false, from: 'tablo@example.com' };
  expect((await op('xcPluginSet', { title: 'SMTP', input, active: true })).status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

describe('mail language', () => {
  test('Accept-Language picks the first language the web app speaks, by weight', () => {
    expect(mailLanguageOf(null)).toBe('en');
    expect(mailLanguageOf('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(mailLanguageOf('de-DE,de;q=0.9,es;q=0.5,en;q=0.4')).toBe('es');
    expect(mailLanguageOf('en;q=0.2, zh-TW;q=0.8')).toBe('zh_CN');
    expect(mailLanguageOf('pt-BR')).toBe('pt');
    expect(mailLanguageOf('de, *')).toBe('en');
    expect(mailLanguageOf('fr;q=0, es')).toBe('es');
  });

  test('the SMTP test mail, an invite and an added notice are in the language of the screen that asked', async () => {
    expect((await op('xcPluginTest', { title: 'SMTP', to: 'probe@example.com' }, { 'accept-language': 'es' })).status).toBe(200);
    const probe = await waitFor('the test mail', () => smtp.to('probe@example.com')[0]);
    expect(probe.subject).toBe('Tablo: prueba de SMTP');

    const project = (await op('projectCreateByWeb', { title: 'Projet' })).body.id;
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': admin, 'accept-language': 'fr' }, body: { email: 'amelie@example.com', roles: 'editor', project_id: project } });
    expect(invite.body.mailed).toBe(true);
    const mail = await waitFor('the invite mail', () => smtp.to('amelie@example.com')[0]);
    expect(mail.subject).toBe('Tablo : vous êtes invité à « Projet »');
    expect(mail.text).toContain('admin@example.com vous a invité au projet « Projet » en tant que éditeur.');
    expect(mail.text).toContain('Le lien fonctionne pendant 24 heures.');
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain("Accepter l&#39;invitation");
    const link = /http:\/\/tablo\.test\/#\/user\/authentication\/signup\/([\w-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    expect(mail.html).toContain(`href="${link![0]}"`);
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'amelie@example.com', password: 'password123', token: link![1] } });
    expect(signup.status).toBe(200);

    const other = (await op('projectCreateByWeb', { title: '第二个' })).body.id;
    await t.request('POST', '/admin', { headers: { 'xc-auth': admin, 'accept-language': 'zh-CN,zh;q=0.9' }, body: { email: 'amelie@example.com', roles: 'viewer', project_id: other } });
    const told = await waitFor('the added mail', () => smtp.to('amelie@example.com')[1]);
    expect(told.subject).toBe('Tablo：您已被添加到“第二个”');
    expect(told.text).toContain('admin@example.com 已将您以 查看者 身份添加到项目“第二个”。');
    expect(told.text).toContain(`http://tablo.test/#/nc/${other}`);
  });

  test('the password reset mail is in the language of the page that asked for it, and its link works', async () => {
    await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'joao@example.com', roles: 'viewer', project_id: (await op('projectCreateByWeb', { title: 'P' })).body.id } });
    const invite = await waitFor('the invite', () => smtp.to('joao@example.com')[0]);
    expect(invite.subject).toBe("Tablo: you are invited to 'P'");
    const token = /signup\/([\w-]+)/.exec(invite.text)![1];
    expect((await t.request('POST', '/auth/signup', { body: { email: 'joao@example.com', password: 'password123', token } })).status).toBe(200);

    expect((await t.request('POST', '/auth/password/forgot', { headers: { 'accept-language': 'pt-BR,pt;q=0.9' }, body: { email: 'joao@example.com' } })).status).toBe(200);
    const reset = (await waitFor('the reset mail', () => smtp.to('joao@example.com').find((m) => m.subject.includes('senha'))))!;
    expect(reset.subject).toBe('Tablo: redefina sua senha');
    expect(reset.text).toContain('Alguém pediu para redefinir a senha da sua conta.');
    expect(reset.html).toContain('Redefinir a senha');
    const tokenOf = /http:\/\/tablo\.test\/#\/user\/password\/reset\?token=([\w-]+)/.exec(reset.text);
    expect(tokenOf).not.toBeNull();
    expect((await t.request('POST', `/auth/password/reset/${tokenOf![1]}`, { body: { password: 'another-pass-1' } })).status).toBe(200);
    expect((await t.request('POST', '/auth/signin', { body: { email: 'joao@example.com', password: 'another-pass-1' } })).status).toBe(200);
  });

  test("a chat plugin's Test message is in the caller's language", async () => {
    const receiver = startReceiver();
    try {
      const r = await op('xcPluginTest', { title: 'Mattermost', input: { webhookUrl: receiver.url('/mm') } }, { 'accept-language': 'fr-FR' });
      expect(r.body).toEqual({ ok: true, msg: 'A test message was posted to Mattermost' });
      expect(receiver.at('/mm')[0]!.json).toEqual({ text: "Tablo : un message de test de l'App Store" });
    } finally {
      receiver.stop();
    }
  });
});
