/** A stored hook read for use (notification parsed, secret opened) and for lists (secret and header values masked). */
import { open } from '../lib/secret-box';
import { badRequest } from '../lib/errors';
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

/** What a header value shows in place of its characters. */
export const HEADER_MASK = '••••';

/**
 * A header value as lists show it: `••••` and its last 4 characters (only the mask for a value of 8
 * or fewer; an empty value stays empty, there is nothing to hide): enough to tell an `Authorization`
 * value from another, never enough to use one.
 */
export const maskHeaderValue = (value: string) => (value === '' ? '' : HEADER_MASK + (value.length > 8 ? value.slice(-4) : ''));

/** The notification with its header values masked (a url hook's headers carry tokens). */
function maskedNotification(n: Notification): Notification {
  if (n.type !== 'url') return n;
  return { ...n, headers: Object.fromEntries(Object.entries(n.headers).map(([k, v]) => [k, maskHeaderValue(v)])) };
}

/**
 * The headers of a hook being saved: a value sent back as the list masked it keeps the stored value of
 * that header; a new value replaces it. A masked value that stands for no stored one (a header
 * renamed, or a new hook) cannot be saved: it is refused, naming the header.
 */
export function headersToSave(sent: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    const kept = Object.hasOwn(stored, name) && value === maskHeaderValue(stored[name]!) ? stored[name]! : undefined;
    if (kept === undefined && value.startsWith(HEADER_MASK)) throw badRequest(`The value of the header '${name}' is hidden: type it again`);
    out[name] = kept ?? value;
  }
  return out;
}

/** The hook as lists answer it (secret and header values masked). */
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
