/** A stored hook read for use (notification parsed, secret opened) and for lists (secret, header values and webhook URL masked). */
import { open } from '../lib/secret-box';
import { headersToSave, maskHeaders, maskUrl, urlToSave } from '../lib/masked-secrets';
import type { HookRecord } from '../meta/hooks-repo';
import { NotificationSchema, type Notification } from './notification';

export const HOOK_EVENTS = ['after.insert', 'after.update', 'after.delete'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The notification of a stored hook (stored ones were checked on save). */
export const notificationOf = (h: HookRecord): Notification => NotificationSchema.parse(JSON.parse(h.notification));

/** The plain signing secret of a url hook, or null. */
export const secretOf = (h: HookRecord, key: string): string | null => (h.secret ? open(key, h.secret) : null);

/** `whsec_abcd••••••••` : enough to tell secrets apart, never enough to use one. */
export const maskSecret = (plain: string | null) => (plain ? `${plain.slice(0, 10)}${'•'.repeat(12)}` : null);

/** The notification with its secrets masked (a url hook's header values, a chat hook's webhook URL). */
function maskedNotification(n: Notification): Notification {
  if (n.type === 'url') return { ...n, headers: maskHeaders(n.headers) };
  if (n.type !== 'email' && n.webhook_url) return { ...n, webhook_url: maskUrl(n.webhook_url) };
  return n;
}

/**
 * A notification being saved: header values and a webhook URL sent back masked keep those of
 * `stored` (see headersToSave and urlToSave).
 */
export function notificationToSave(n: Notification, stored: Notification | null): Notification {
  if (n.type === 'url') return { ...n, headers: headersToSave(n.headers, stored?.type === 'url' ? stored.headers : {}) };
  if (n.type === 'email') return n;
  const before = stored && stored.type !== 'url' && stored.type !== 'email' ? stored.webhook_url : undefined;
  return { ...n, webhook_url: urlToSave(n.webhook_url, before) };
}

/** The hook as lists answer it (secret, header values and webhook URL masked). */
export function hookView(h: HookRecord, key: string) {
  let secret: string | null = null;
  try {
    secret = maskSecret(secretOf(h, key));
  } catch {
    secret = '(unreadable)';
  }
  return {
    id: h.id,
    tn: h.tn,
    title: h.title,
    event: h.event,
    condition: h.where_cond,
    active: h.active === 1,
    notification: maskedNotification(JSON.parse(h.notification) as Notification),
    secret,
    created_at: h.created_at,
    updated_at: h.updated_at,
  };
}
