/**
 * Reads of a project that several parts of its page need after every schema change (the tree, the
 * page's check of its default database, the tree's panels, the views' rights): the project's
 * environments (projectEnvList) and the user's roles in it (/user/me). One read per project,
 * session and schema generation, shared by everyone who asks; a failed read is asked again by the
 * next caller, and a project left is read afresh when it opens again (changes made meanwhile sent no
 * event to this page).
 */
import { dashboardOp } from '../api/projects';
import { http } from '../api/http';
import type { EnvDetails } from '../api/project-meta';
import { token } from './session';
import { schemaGeneration } from './schema-ui';

/** The caches of the shared reads, each the latest read of a project. */
const caches: Map<string, unknown>[] = [];

/** One promise per key, the latest key of each project only. */
function sharedRead<T>(read: (projectId: string) => Promise<T>): (projectId: string) => Promise<T> {
  const cache = new Map<string, { key: string; promise: Promise<T> }>();
  caches.push(cache);
  return (projectId) => {
    const key = `${token.value ?? ''}\u0000${schemaGeneration.peek()}`;
    const held = cache.get(projectId);
    if (held && held.key === key) return held.promise;
    const promise = read(projectId);
    cache.set(projectId, { key, promise });
    promise.catch(() => cache.get(projectId)?.promise === promise && cache.delete(projectId));
    return promise;
  };
}

/** The project's environments and their databases, as of the current schema generation. */
export const projectEnvs = sharedRead((projectId) => dashboardOp<EnvDetails>('projectEnvList', { projectId }));

/** The signed-in user's roles in the project, as of the current schema generation. */
export const projectRoles = sharedRead((projectId) =>
  http<{ roles?: Record<string, boolean> }>('/user/me', { query: { project_id: projectId } }).then((me) => me.roles ?? {}),
);

/** Lets go of a project's shared reads (its page closed): the next one asks the server. */
export function forgetProjectReads(projectId: string): void {
  for (const cache of caches) cache.delete(projectId);
}
