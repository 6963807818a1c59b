/** A stored hook read for use (notification parsed, secret opened) and for lists (secret masked). */
import { open } from '../lib/secret-box';
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

/** The hook as lists answer it. */
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
    notification: JSON.parse(h.notification) as Notification,
    secret,
    created_at: h.created_at,
    updated_at: h.updated_at,
  };
}
