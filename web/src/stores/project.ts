/** The project open in the dashboard (for the top bar: name, API links, project info). */
import { signal } from './signals';

export const currentProject = signal<{ id: string; title: string; projectType: 'rest' | 'graphql' } | null>(null);

/** Whether the signed-in user may add people to the open project (owner or creator, not previewing another role). */
export const canShare = signal(false);
/** The caller is an owner or creator of the open project, not previewing a role (ACL, Meta Management and SQL Client leaves). */
export const isProjectAdmin = signal(false);
/** The caller is an owner of the open project (or the Super Admin), not previewing a role: grants and changes the owner role. */
export const isProjectOwner = signal(false);
/** Whether the caller's roles in the open project have been read (until then isProjectAdmin is not known). */
export const projectRolesKnown = signal(false);
