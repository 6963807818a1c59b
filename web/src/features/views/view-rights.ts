/**
 * Whether the signed-in user may change the views of a project (owners, creators and editors, and
 * the Super Admin) or comment on its rows (those and commenters); while previewing a role, that role
 * decides.
 */
import { useEffect, useState } from 'react';
import { http } from '../../api/http';
import { previewAs } from '../../stores/preview';
import { token } from '../../stores/session';
import { schemaGeneration } from '../../stores/schema-ui';
import { mayComment, mayEditViews } from './view-roles';


const cache = new Map<string, Promise<Record<string, boolean>>>();

/** The user's roles in the project (null until known). */
function useProjectRoles(projectId: string): Record<string, boolean> | null {
  const [roles, setRoles] = useState<Record<string, boolean> | null>(null);
  // A schema change (also how the server tells of a change of this user's roles) asks again.
  const generation = schemaGeneration.value;
  useEffect(() => {
    // Per project and session: another user signing in on this page asks again.
    const key = `${projectId}\u0000${token.value ?? ''}\u0000${generation}`;
    let p = cache.get(key);
    if (!p) {
      for (const k of cache.keys()) if (k.startsWith(`${projectId}\u0000`)) cache.delete(k);
      p = http<{ roles?: Record<string, boolean> }>('/user/me', { query: { project_id: projectId } }).then((me) => me.roles ?? {});
      cache.set(key, p);
      p.catch(() => cache.delete(key));
    }
    p.then(setRoles, () => setRoles({}));
  }, [projectId, generation]);
  return roles;
}

/** May the user change views? False until the roles are known. */
export function useCanEditViews(projectId: string): boolean {
  const roles = useProjectRoles(projectId);
  return roles ? mayEditViews(roles, previewAs.value) : false;
}

/** May the user add comments to rows? False until the roles are known. */
export function useCanComment(projectId: string): boolean {
  const roles = useProjectRoles(projectId);
  return roles ? mayComment(roles, previewAs.value) : false;
}
