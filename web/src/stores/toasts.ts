/** Toasts (top-centre, 2-5 s) and the notification list of the bell. */
import { signal } from './signals';

/** A button in a toast (e.g. Undo after a delete); the toast closes when it is pressed. */
export interface ToastAction {
  label: string;
  run: () => void;
}

/** One message at the top centre. */
export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  text: string;
  action?: ToastAction;
}

/** The toasts on screen, oldest first. */
export const toasts = signal<Toast[]>([]);
let nextId = 1;

/** Shows a toast for `ms` milliseconds, with an optional action button. */
export function toast(kind: Toast['kind'], text: string, ms = kind === 'info' ? 2000 : 3000, action?: ToastAction): void {
  // Several calls failing the same way at once show one toast, not a stack of copies; a toast
  // with an action replaces its plain twin (the same words, now with the button).
  if (toasts.value.some((t) => t.kind === kind && t.text === text)) {
    if (!action) return;
    toasts.value = toasts.value.filter((t) => !(t.kind === kind && t.text === text));
  }
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text, action }];
  setTimeout(() => dismissToast(id), ms);
}

/** Takes a toast off the screen. */
export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}
