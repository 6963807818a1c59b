/** Who changes saved views (owners, creators and editors) and who comments on rows (and commenters). Pure. */

/** Roles that create and change saved views and their shared links. */
export const VIEW_EDITOR_ROLES = ['owner', 'creator', 'editor'];

/** Roles that add comments to rows (the server's commentCreate allows the same). */
export const COMMENT_ROLES = [...VIEW_EDITOR_ROLES, 'commenter'];

/** True when `roles` (with the previewed role, if any) is among `allowed`; the Super Admin is unless previewing. */
function holds(allowed: string[], roles: Record<string, boolean>, preview: string | null): boolean {
  if (preview) return allowed.includes(preview);
  return !!roles.super || allowed.some((r) => roles[r]);
}

/** True when `roles` (with the previewed role, if any) may change views. */
export const mayEditViews = (roles: Record<string, boolean>, preview: string | null): boolean => holds(VIEW_EDITOR_ROLES, roles, preview);

/** True when `roles` (with the previewed role, if any) may add comments: not viewers or guests. */
export const mayComment = (roles: Record<string, boolean>, preview: string | null): boolean => holds(COMMENT_ROLES, roles, preview);
