/**
 * Whether the signed-in user may change the views of a project (owners, creators and editors, and
 * the Super Admin) or comment on its rows (those and commenters); while previewing a role, that role
 * decides.
 */
import { useEffect, useState } from 'react';
import { previewAs } from '../../stores/preview';
import { token } from '../../stores/session';
import { schemaGeneration } from '../../stores/schema-ui';
import { projectRoles } from '../../stores/project-reads';
import { mayComment, mayEditViews } from './view-roles';

/** The user's roles in the project (null until known). */
function useProjectRoles(projectId: string): Record<string, boolean> | null {
  const [roles, setRoles] = useState<Record<string, boolean> | null>(null);
  // A schema change (also how the server tells of a change of this user's roles) asks again, once for every view.
  const generation = schemaGeneration.value;
  useEffect(() => {
    let live = true;
    projectRoles(projectId).then((r) => live && setRoles(r), () => live && setRoles({}));
    return () => void (live = false);
  }, [projectId, generation, token.value]);
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
