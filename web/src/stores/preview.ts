/**
 * Preview as a role: an owner or creator sees the dashboard as an editor, commenter or viewer
 * would. Sent as `xc-preview` on every call except /user/me; changing it reloads the page.
 */
import { signal } from './signals';

const KEY = 'tablo.previewAs';
export const PREVIEW_ROLES = ['editor', 'commenter', 'viewer'] as const;
export const previewAs = signal<string | null>(localStorage.getItem(KEY));

export function setPreview(role: string | null): void {
  if (role) localStorage.setItem(KEY, role);
  else localStorage.removeItem(KEY);
  window.location.reload();
}
