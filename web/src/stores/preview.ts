/**
 * Preview as a role: an owner or creator sees the dashboard as an editor, commenter, viewer or
 * guest would (owner-only entries disappear while previewing). Sent as `xc-preview` on every call
 * except /user/me and the team calls; changing it reloads the page.
 */
import { signal } from './signals';

const KEY = 'tablo.previewAs';
export const PREVIEW_ROLES = ['editor', 'commenter', 'viewer', 'guest'] as const;
export const previewAs = signal<string | null>(localStorage.getItem(KEY));

export function setPreview(role: string | null): void {
  if (role) localStorage.setItem(KEY, role);
  else localStorage.removeItem(KEY);
  window.location.reload();
}
