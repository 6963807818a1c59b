/** Toasts (top-centre, 2-5 s) and the notification list of the bell. */
import { signal } from './signals';

/** One message at the top centre. */
export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  text: string;
}

/** The toasts on screen, oldest first. */
export const toasts = signal<Toast[]>([]);
let nextId = 1;

/** Shows a toast for `ms` milliseconds. */
export function toast(kind: Toast['kind'], text: string, ms = kind === 'info' ? 2000 : 3000): void {
  // Several calls failing the same way at once show one toast, not a stack of copies.
  if (toasts.value.some((t) => t.kind === kind && t.text === text)) return;
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text }];
  setTimeout(() => {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  }, ms);
}
