/**
 * One delivery attempt of a hook: builds the request of its notification (url with the signed
 * JSON payload or a rendered body, e-mail through the mail path, chat messages in each service's
 * incoming-webhook shape) and reports what happened, without throwing.
 */
import { createHmac } from 'node:crypto';
import { LIMITS } from '../config/limits';
import { MailNotConfigured, sendMail } from '../lib/mail';
import { chatChannelOf } from '../lib/chat-channels';
import { guardedFetch, RefusedAddress } from '../api/clients/guarded-fetch';
import { HEADER_VALUE } from '../api/clients/http-send';
import { render, renderUrl, type Notification } from './notification';

/** The JSON every hook delivery is about (api-contract section 6). */
export interface HookPayload {
  event: string;
  table: string;
  data: Record<string, unknown>;
  previous?: Record<string, unknown>;
  hook: { id: string; title: string };
  at: string;
}

export interface SendResult {
  ok: boolean;
  /** A network error, a time-out, a 5xx or a 429: worth another attempt. */
  retryable: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** `sha256=<hex HMAC-SHA256 of body with secret>`: the x-tablo-signature header. */
export const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const looksJson = (t: string) => /^\s*[[{]/.test(t);
const cut = (s: string) => (s.length > LIMITS.automationResultMax ? `${s.slice(0, LIMITS.automationResultMax)}…` : s);

/** The chat text: the body template rendered, or a one-line summary with the row. */
function chatText(n: { body?: string }, payload: HookPayload): string {
  if (n.body) return render(n.body, payload);
  return `${payload.hook.title}: ${payload.event} on ${payload.table}\n${JSON.stringify(payload.data).slice(0, 1500)}`;
}

/** The HTML body of an e-mail hook: its text, escaped, with line breaks kept. */
const textToHtml = (t: string) =>
  `<!doctype html><html><body><div style="font-family:sans-serif;white-space:pre-wrap">${t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)}</div></body></html>`;

/**
 * Whether a failed e-mail is worth another attempt: a mail server that could not be reached, timed
 * out or answered a temporary 4xx, yes; one that refused it for good (5xx: no such mailbox), no.
 */
function mailRetryable(e: unknown): boolean {
  const code = (e as { responseCode?: unknown }).responseCode;
  return !(typeof code === 'number' && code >= 500 && code < 600);
}

/** Each chat service's incoming-webhook JSON. */
function chatBody(type: 'slack' | 'discord' | 'teams' | 'mattermost', text: string): unknown {
  if (type === 'discord') return { content: text.slice(0, 2000) };
  return { text };
}

export interface SendOptions {
  /** The app context (its mail transport). */
  mailOwner: object;
  /** Plain signing secret of a url hook. */
  secret: string | null;
  timeoutMs: number;
  /** May deliveries go to loopback and private addresses (NC_API_CLIENT_ALLOW_PRIVATE)? */
  allowPrivate: boolean;
  deliveryId?: string;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
}

/** Runs one attempt; never throws. */
export async function sendOnce(n: Notification, payload: HookPayload, opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: performance.now() - started });
  try {
    if (n.type === 'email') {
      const to = render(n.to, payload).split(',').map((s) => s.trim()).filter(Boolean);
      const text = render(n.body, payload);
      const subject = render(n.subject, payload);
      try {
        await sendMail(opts.mailOwner, { to, subject, text, html: textToHtml(text) });
      } catch (e) {
        if (e instanceof MailNotConfigured) throw e;
        return done({ ok: false, retryable: mailRetryable(e), status: null, error: `The e-mail could not be sent: ${(e as Error).message}` });
      }
      return done({ ok: true, retryable: false, status: null, error: null });
    }
    let url: string;
    let method = 'POST';
    let body: string | undefined;
    const headers: Record<string, string> = { 'user-agent': 'Tablo-Hooks', 'x-tablo-event': payload.event };
    if (n.type === 'url') {
      url = renderUrl(n.url, payload);
      method = n.method;
      for (const [k, v] of Object.entries(n.headers)) {
        const value = render(v, payload);
        // A row's value with a line break cannot go in a header: no attempt would ever carry it.
        if (!HEADER_VALUE.test(value)) return done({ ok: false, retryable: false, status: null, error: `The header '${k}' became a value no request can carry (a line break or a character beyond Latin-1): ${JSON.stringify(value.slice(0, 100))}` });
        headers[k.toLowerCase()] = value;
      }
      if (method !== 'GET') {
        body = n.body ? render(n.body, payload, looksJson(n.body) ? 'json' : 'none') : JSON.stringify(payload);
        headers['content-type'] ??= !n.body || looksJson(n.body) ? 'application/json' : 'text/plain; charset=utf-8';
      }
      if (opts.secret) headers['x-tablo-signature'] = signature(opts.secret, body ?? '');
      if (opts.deliveryId) headers['x-tablo-delivery'] = opts.deliveryId;
    } else {
      const channel = n.webhook_url ?? chatChannelOf(opts.mailOwner, n.type);
      if (!channel) return done({ ok: false, retryable: false, status: null, error: `No ${n.type} webhook URL: give one in the hook or install the ${n.type} plugin in the App Store` });
      url = channel;
      body = JSON.stringify(chatBody(n.type, chatText(n, payload)));
      headers['content-type'] = 'application/json';
    }
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    let res: Response;
    try {
      // A project's owners choose the URL: it may not lead the server into its own network (SSRF),
      // neither directly nor through a redirect.
      res = await guardedFetch(url, { method, headers, body, signal }, opts.allowPrivate);
    } catch (e) {
      if (e instanceof RefusedAddress) return done({ ok: false, retryable: false, status: null, error: e.message });
      if (opts.signal?.aborted) return done({ ok: false, retryable: true, status: null, error: 'Stopped: the server is shutting down' });
      if (timeout.aborted) return done({ ok: false, retryable: true, status: null, error: `No answer from ${url} within ${Math.round(opts.timeoutMs / 1000)} s` });
      return done({ ok: false, retryable: true, status: null, error: `Could not reach ${url}: ${(e as Error).message}` });
    }
    const text = cut(await res.text().catch(() => ''));
    if (res.ok) return done({ ok: true, retryable: false, status: res.status, error: null });
    const retryable = res.status >= 500 || res.status === 429;
    const answered = res.statusText ? `${res.status} ${res.statusText}` : String(res.status);
    // Two whole sentences, so that the web app's catalogue of server messages finds and translates them.
    return done({ ok: false, retryable, status: res.status, error: text ? `The receiver answered ${answered}: ${text.slice(0, 300)}` : `The receiver answered ${answered}` });
  } catch (e) {
    if (e instanceof MailNotConfigured) return done({ ok: false, retryable: false, status: null, error: e.message });
    return done({ ok: false, retryable: false, status: null, error: `Template error: ${(e as Error).message}` });
  }
}
