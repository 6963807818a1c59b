/**
 * Preview as a role: an owner or creator sees the dashboard as an editor, commenter, viewer or
 * guest would (owner-only entries disappear while previewing). Sent as `xc-preview` on every call
 * except /user/me and the team calls; changing it reloads the page.
 */
import { signal } from './signals';

const KEY = 'tablo.previewAs';
export const PREVIEW_ROLES = ['editor', 'commenter', 'viewer', 'guest'] as const;
/** The stored role, if it is one the server knows (it answers 400 to any other). */
const stored = (): string | null => {
  const role = localStorage.getItem(KEY);
  return role && (PREVIEW_ROLES as readonly string[]).includes(role) ? role : null;
};
export const previewAs = signal<string | null>(stored());

export function setPreview(role: string | null): void {
  if (role) localStorage.setItem(KEY, role);
  else localStorage.removeItem(KEY);
  window.location.reload();
}
