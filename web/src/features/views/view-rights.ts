/**
 * Whether the signed-in user may change the views of a project: owners, creators and editors
 * (and the Super Admin); while previewing a role, that role decides.
 */
import { useEffect, useState } from 'react';
import { http } from '../../api/http';
import { previewAs } from '../../stores/preview';
import { token } from '../../stores/session';
import { mayEditViews } from './view-roles';


const cache = new Map<string, Promise<Record<string, boolean>>>();

/** The hook: false until the roles are known. */
export function useCanEditViews(projectId: string): boolean {
  const [roles, setRoles] = useState<Record<string, boolean> | null>(null);
  useEffect(() => {
    // Per project and session: another user signing in on this page asks again.
    const key = `${projectId}\u0000${token.value ?? ''}`;
    let p = cache.get(key);
    if (!p) {
      p = http<{ roles?: Record<string, boolean> }>('/user/me', { query: { project_id: projectId } }).then((me) => me.roles ?? {});
      cache.set(key, p);
      p.catch(() => cache.delete(key));
    }
    p.then(setRoles, () => setRoles({}));
  }, [projectId]);
  return roles ? mayEditViews(roles, previewAs.value) : false;
}
