/**
 * Sends one of Tablo's own mails (invite, password reset) through the app's mail transport. With no
 * mail plugin, or when sending fails, the link goes to the server log as before, for the
 * administrator to pass on; the answer says whether the mail went out.
 */
import type { BaseContext as AppContext } from '../context';
import { mailTransportOf, type MailMessage } from '../lib/mail';

export async function mailOrLog(ctx: AppContext, to: string, message: Omit<MailMessage, 'to'>, logLine: string): Promise<{ mailed: boolean; error?: string }> {
  const t = mailTransportOf(ctx);
  if (!t) {
    ctx.log.info(logLine);
    return { mailed: false };
  }
  try {
    await t.send({ to: [to], ...message });
    ctx.log.info(`mail '${message.subject}' sent to ${to}`);
    return { mailed: true };
  } catch (e) {
    const error = `The mail to ${to} could not be sent: ${(e as Error).message}`;
    ctx.log.error(error);
    ctx.log.info(logLine);
    return { mailed: false, error };
  }
}
