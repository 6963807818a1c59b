/**
 * The mails Tablo sends itself, each with a text and an HTML body: invites, password resets and the
 * SMTP plugin's test mail, in the language of the request that asked for them (src/plugins/mail-text.ts).
 * Values are HTML-escaped in the HTML body.
 */
import type { BaseContext as AppContext } from '../context';
import type { MailMessage } from '../lib/mail';
import type { MailLanguage } from '../lib/mail-language';
import { brandingOf } from './state';
import { MAIL_WORDS } from './mail-text';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const appName = (ctx: AppContext) => brandingOf(ctx).title ?? 'Tablo';

const htmlLang = (lang: MailLanguage) => lang.replace('_', '-');

function html(ctx: AppContext, lang: MailLanguage, paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${esc(p)}</p>`).join('');
  const button = link ? `<p><a href="${esc(link.href)}" style="display:inline-block;padding:8px 16px;background:#2563eb;color:#fff;text-decoration:none;border-radius:4px">${esc(link.label)}</a></p><p style="color:#666;font-size:12px">${esc(link.href)}</p>` : '';
  return `<!doctype html><html lang="${htmlLang(lang)}"><body style="font-family:sans-serif"><h2>${esc(appName(ctx))}</h2>${body}${button}</body></html>`;
}

/** Comma-separated role names ('editor,viewer') in the mail's language. */
const rolesIn = (lang: MailLanguage, roles: string) =>
  roles
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => MAIL_WORDS[lang].roles[r] ?? r)
    .join(', ');

interface ProjectMail {
  inviter: string | null;
  project: string;
  roles: string;
  url: string;
}

/** The invite to a project. */
export function inviteMail(ctx: AppContext, p: ProjectMail, lang: MailLanguage = 'en'): Omit<MailMessage, 'to'> {
  const w = MAIL_WORDS[lang];
  const line = w.invited({ who: p.inviter ?? w.someone, project: p.project, roles: rolesIn(lang, p.roles) });
  return {
    subject: w.inviteSubject(appName(ctx), p.project),
    text: `${line}\n\n${w.inviteSignUp} ${p.url}\n\n${w.inviteExpiry}\n`,
    html: html(ctx, lang, [line, w.inviteExpiry], { href: p.url, label: w.inviteButton }),
  };
}

/** An existing account added to a project (no sign-up needed). */
export function addedMail(ctx: AppContext, p: ProjectMail, lang: MailLanguage = 'en'): Omit<MailMessage, 'to'> {
  const w = MAIL_WORDS[lang];
  const line = w.added({ who: p.inviter ?? w.someone, project: p.project, roles: rolesIn(lang, p.roles) });
  return {
    subject: w.addedSubject(appName(ctx), p.project),
    text: `${line}\n\n${w.addedOpen} ${p.url}\n`,
    html: html(ctx, lang, [line], { href: p.url, label: w.addedButton }),
  };
}

/** The password reset link. */
export function resetMail(ctx: AppContext, url: string, lang: MailLanguage = 'en'): Omit<MailMessage, 'to'> {
  const w = MAIL_WORDS[lang];
  return {
    subject: w.resetSubject(appName(ctx)),
    text: `${w.reset}\n\n${w.resetHere} ${url}\n\n${w.resetExpiry}\n`,
    html: html(ctx, lang, [w.reset, w.resetExpiry], { href: url, label: w.resetButton }),
  };
}

/** The SMTP plugin's test mail. */
export function testMail(ctx: AppContext, lang: MailLanguage = 'en'): Omit<MailMessage, 'to'> {
  const w = MAIL_WORDS[lang];
  return { subject: w.testSubject(appName(ctx)), text: `${w.test}\n`, html: html(ctx, lang, [w.test]) };
}
