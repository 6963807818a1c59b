/**
 * The mails Tablo sends itself, each with a text and an HTML body: invites, password resets and the
 * SMTP plugin's test mail. Values are HTML-escaped in the HTML body.
 */
import type { BaseContext as AppContext } from '../context';
import type { MailMessage } from '../lib/mail';
import { brandingOf } from './state';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const appName = (ctx: AppContext) => brandingOf(ctx).title ?? 'Tablo';

function html(ctx: AppContext, paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${esc(p)}</p>`).join('');
  const button = link ? `<p><a href="${esc(link.href)}" style="display:inline-block;padding:8px 16px;background:#2563eb;color:#fff;text-decoration:none;border-radius:4px">${esc(link.label)}</a></p><p style="color:#666;font-size:12px">${esc(link.href)}</p>` : '';
  return `<!doctype html><html><body style="font-family:sans-serif"><h2>${esc(appName(ctx))}</h2>${body}${button}</body></html>`;
}

/** The invite to a project. */
export function inviteMail(ctx: AppContext, p: { inviter: string | null; project: string; roles: string; url: string }): Omit<MailMessage, 'to'> {
  const who = p.inviter ?? 'Someone';
  const line = `${who} invited you to the project '${p.project}' as ${p.roles}.`;
  const expiry = 'The link works for 24 hours.';
  return {
    subject: `${appName(ctx)}: you are invited to '${p.project}'`,
    text: `${line}\n\nSign up here: ${p.url}\n\n${expiry}\n`,
    html: html(ctx, [line, expiry], { href: p.url, label: 'Accept the invite' }),
  };
}

/** An existing account added to a project (no sign-up needed). */
export function addedMail(ctx: AppContext, p: { inviter: string | null; project: string; roles: string; url: string }): Omit<MailMessage, 'to'> {
  const line = `${p.inviter ?? 'Someone'} added you to the project '${p.project}' as ${p.roles}.`;
  return {
    subject: `${appName(ctx)}: you were added to '${p.project}'`,
    text: `${line}\n\nOpen it here: ${p.url}\n`,
    html: html(ctx, [line], { href: p.url, label: 'Open the project' }),
  };
}

/** The password reset link. */
export function resetMail(ctx: AppContext, url: string): Omit<MailMessage, 'to'> {
  const line = 'Someone asked to reset the password of your account. If it was not you, ignore this mail.';
  const expiry = 'The link works for one hour.';
  return {
    subject: `${appName(ctx)}: reset your password`,
    text: `${line}\n\nReset it here: ${url}\n\n${expiry}\n`,
    html: html(ctx, [line, expiry], { href: url, label: 'Reset the password' }),
  };
}

/** The SMTP plugin's test mail. */
export function testMail(ctx: AppContext): Omit<MailMessage, 'to'> {
  const line = 'This is a test mail from the App Store: the SMTP plugin works.';
  return { subject: `${appName(ctx)}: SMTP test`, text: `${line}\n`, html: html(ctx, [line]) };
}
