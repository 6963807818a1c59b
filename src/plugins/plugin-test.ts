/**
 * The Test button of each plugin: SMTP sends a mail to the given address, storages write, read back
 * and delete a small file, chat plugins post a message, Branding checks its logo URL answers. The
 * test mail and chat message are in the caller's language.
 * A failure answers 400 `{msg}` with what went wrong.
 */
import type { AppContext } from '../context';
import { badRequest } from '../lib/errors';
import { chatBody } from '../lib/chat-channels';
import { CHAT_SERVICE, type PluginDef } from './catalog';
import { smtpTransport, type SmtpInput } from './smtp';
import { localStorage, probeStorage, s3Storage, type S3Input } from './storage';
import { testMail } from './mail-templates';
import type { MailLanguage } from '../lib/mail-language';
import { MAIL_WORDS } from './mail-text';

const TEST_TIMEOUT_MS = 10_000;

/** Runs the plugin's test with a checked input; answers a message or throws 400. */
export async function testPlugin(ctx: AppContext, p: PluginDef, input: Record<string, unknown>, to: string | undefined, lang: MailLanguage = 'en'): Promise<string> {
  const fail = (e: unknown) => badRequest(`${p.title} test failed: ${(e as Error).message}`);
  if (p.title === 'SMTP') {
    if (!to || !/^[^\s@]+@[^\s@]+$/.test(to)) throw badRequest('Give an e-mail address to send the test mail to');
    const t = smtpTransport(input as unknown as SmtpInput);
    try {
      await t.send({ to: [to], ...testMail(ctx, lang) });
    } catch (e) {
      throw fail(e);
    } finally {
      t.close();
    }
    return `A test mail was sent to ${to}`;
  }
  if (p.category === 'Storage') {
    const s = p.title === 'S3' ? s3Storage(input as unknown as S3Input) : localStorage(ctx.dataDir, String(input.folder));
    let timer: Timer | undefined;
    // A store that takes the connection but never answers would hold the Test for good.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${TEST_TIMEOUT_MS / 1000} s`)), TEST_TIMEOUT_MS);
    });
    try {
      await Promise.race([probeStorage(s), late]);
    } catch (e) {
      throw fail(e);
    } finally {
      clearTimeout(timer);
    }
    return `A test file was written, read back and deleted in ${p.title} storage`;
  }
  if (p.category === 'Chat') {
    const service = CHAT_SERVICE[p.title]!;
    try {
      const res = await fetch(String(input.webhookUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Tablo-AppStore' },
        body: JSON.stringify(chatBody(service, MAIL_WORDS[lang].chatTest)),
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`the webhook answered ${res.status}`);
    } catch (e) {
      throw fail(e);
    }
    return `A test message was posted to ${p.title}`;
  }
  // Branding: the logo, if any, must be reachable (an uploaded one always is).
  const logo = String(input.logoUrl ?? '');
  if (logo && /^https?:\/\//.test(logo)) {
    try {
      const res = await fetch(logo, { signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`the logo URL answered ${res.status}`);
    } catch (e) {
      throw fail(e);
    }
  }
  return 'The branding is valid';
}
