/** The notification bell: operations with status pending, success or error and their times. */
import { computed, signal } from './signals';
import { toast } from './toasts';
import { formatRelative, locale, t } from '../i18n';

export interface Notification {
  id: number;
  title: string;
  status: 'pending' | 'success' | 'error';
  time: number;
  detail?: string;
}

export const notifications = signal<Notification[]>([]);
export const anyPending = computed(() => notifications.value.some((n) => n.status === 'pending'));
let nextId = 1;

/**
 * Records an operation: pending until it ends, then success or error (with a toast). `done` is the
 * success toast's sentence when it differs from the title ("Save Name" -> "Saved Name").
 */
export async function track<T>(title: string, run: Promise<T>, done?: string): Promise<T> {
  const id = nextId++;
  notifications.value = [{ id, title, status: 'pending', time: Date.now() }, ...notifications.value];
  const settle = (status: 'success' | 'error', detail?: string) => {
    notifications.value = notifications.value.map((n) => (n.id === id ? { ...n, status, detail, time: Date.now() } : n));
    toast(status, detail ? t('app.notifications.failed', { title, detail }) : status === 'success' ? done ?? succeeded(title) : title);
  };
  try {
    const out = await run;
    settle('success');
    return out;
  } catch (e) {
    settle('error', (e as Error).message);
    throw e;
  }
}

const PAST: Record<string, string> = {
  Add: 'Added', Change: 'Changed', Delete: 'Deleted', Invite: 'Invited', Link: 'Linked', Move: 'Moved',
  Reorder: 'Reordered', Save: 'Saved', Submit: 'Submitted', Sync: 'Synced', Unlink: 'Unlinked',
};

/** The success toast of a title given without its own: the past tense in English, "title: done" in other languages. */
function succeeded(title: string): string {
  return locale.value === 'en' ? pastTense(title) : t('app.notifications.succeeded', { title });
}

/** The success sentence of an English operation title: 'Save row' -> 'Saved row'; other titles stay as they are. */
export function pastTense(title: string): string {
  const space = title.indexOf(' ');
  const verb = space < 0 ? title : title.slice(0, space);
  return PAST[verb] ? PAST[verb] + title.slice(verb.length) : title;
}

/** Records an operation that failed before it could start (e.g. its preview), with a toast. */
export function reportError(title: string, detail: string): void {
  notifications.value = [{ id: nextId++, title, status: 'error', time: Date.now(), detail }, ...notifications.value];
  toast('error', t('app.notifications.failed', { title, detail }));
}

export const clearNotifications = () => (notifications.value = notifications.value.filter((n) => n.status === 'pending'));

/** '5 seconds ago', '3 minutes ago', ... '2 years ago', in the current language. */
export function relativeTime(time: number, now = Date.now()): string {
  return formatRelative(new Date(Math.min(time, now)).toISOString(), now);
}
