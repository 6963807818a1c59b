/**
 * What a hook does when it fires (api-contract section 6): a url call, an e-mail, or a message to
 * a Slack / Discord / Teams / Mattermost incoming webhook. Templates (`{{ data.Column }}`) are
 * checked on save with mustache, a logic-less template engine: nothing stored is run as code.
 */
import Mustache from 'mustache';
import { z } from 'zod';
import { badRequest } from '../lib/errors';
import { headerProblem } from '../lib/http-headers';
import { LIMITS } from '../config/limits';

const httpUrl = z
  .string()
  .trim()
  .min(1, 'The URL is required')
  .max(LIMITS.hookTemplateMax)
  .refine((u) => {
    try {
      return ['http:', 'https:'].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'Not an http(s) URL');

const template = z.string().max(LIMITS.hookTemplateMax);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const CHAT_TYPES = ['slack', 'discord', 'teams', 'mattermost'] as const;

export const NotificationSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('url'),
    method: z.preprocess((m) => (typeof m === 'string' ? m.toUpperCase() : m), z.enum(METHODS)).default('POST'),
    url: httpUrl,
    headers: z
      // Checked on save by checkHeaders, once values left masked are the stored ones again (a masked
      // value is not one HTTP can carry); a stored hook still reads whatever its headers hold.
      .record(z.string().min(1).max(200), z.string().max(4000))
      .default({}),
    body: template.optional(),
  }),
  z.object({
    type: z.literal('email'),
    to: z.string().trim().min(1, 'At least one address is required').max(2000),
    subject: template.min(1, 'The subject is required'),
    body: template,
  }),
  // Without a webhook_url the channel of the service's App Store plugin is used (src/lib/chat-channels.ts).
  z.object({ type: z.enum(CHAT_TYPES), webhook_url: httpUrl.optional(), body: template.optional() }),
]);

export type Notification = z.infer<typeof NotificationSchema>;

/** Throws 400 naming the template when one does not parse (e.g. an unclosed tag). */
/** 400 naming the first header of a url notification that no request can carry (see http-headers.ts). */
export function checkHeaders(n: Notification): void {
  if (n.type !== 'url') return;
  const problem = Object.entries(n.headers).map(([k, v]) => headerProblem(k, v)).find(Boolean);
  if (problem) throw badRequest(problem);
}

export function checkTemplates(n: Notification): void {
  const named: [string, string | undefined][] =
    n.type === 'url' ? [['body', n.body], ['url', n.url], ...Object.entries(n.headers).map(([k, v]) => [`header ${k}`, v] as [string, string])]
      : n.type === 'email' ? [['subject', n.subject], ['body', n.body], ['to', n.to]]
        : [['body', n.body]];
  for (const [name, text] of named) {
    if (!text) continue;
    try {
      Mustache.parse(text);
    } catch (e) {
      throw badRequest(`Template error in the ${name}: ${(e as Error).message}`);
    }
  }
  if (n.type === 'email') {
    for (const to of n.to.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!to.includes('{{') && !/^[^\s@]+@[^\s@]+$/.test(to)) throw badRequest(`'${to}' is not an e-mail address`);
    }
  }
}

/** How values are written into a rendered template: as they are, inside JSON strings, or inside a URL. */
export type TemplateEscape = 'none' | 'json' | 'url';

const ESCAPES: Record<TemplateEscape, (v: unknown) => string> = {
  none: (v) => String(v),
  json: (v) => JSON.stringify(String(v)).slice(1, -1),
  // A value is one part of the address: `/`, `?`, `&` or `#` in it must not start another one.
  url: (v) => encodeURIComponent(String(v)),
};

/** Renders a template over the payload; `escape` says how the values are written (default as they are). */
export function render(text: string, view: unknown, escape: TemplateEscape = 'none'): string {
  return Mustache.render(text, view, undefined, { escape: ESCAPES[escape] });
}

/**
 * The address of a url hook for one delivery: its URL template rendered over the payload, values
 * percent-encoded (`https://shop.example/orders/{{ data.Id }}`). Throws naming the result when
 * it is no http(s) URL (a value that filled the host with nothing, say).
 */
export function renderUrl(template: string, view: unknown): string {
  if (!template.includes('{{')) return template;
  const url = render(template, view, 'url');
  let ok = false;
  try {
    ok = ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {}
  if (!ok) throw new Error(`the URL '${url}' is not an http(s) URL`);
  return url;
}
