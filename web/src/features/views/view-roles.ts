/** Who changes saved views: owners, creators and editors (and the Super Admin). Pure. */

/** Roles that create and change saved views and their shared links. */
export const VIEW_EDITOR_ROLES = ['owner', 'creator', 'editor'];

/** True when `roles` (with the previewed role, if any) may change views. */
export function mayEditViews(roles: Record<string, boolean>, preview: string | null): boolean {
  if (preview) return VIEW_EDITOR_ROLES.includes(preview);
  return !!roles.super || VIEW_EDITOR_ROLES.some((r) => roles[r]);
}
