/**
 * A dashboard operation: one named handler behind `POST /dashboard?q=sqlOp_{name}`, with the
 * access it needs. The dispatcher checks access before `run` is called.
 */
import type { Actor } from '../../lib/actor';
import { badRequest } from '../../lib/errors';
import type { AppContext } from '../../context';

/**
 * - signedIn: any signed-in user;
 * - creator: may create projects and connect databases (Super Admin, or a user the Super Admin allowed);
 * - projectMember: holds a role in the project (or Super Admin / master key);
 * - projectAdmin: owner or creator of the project (or Super Admin / master key).
 */
export type OpAccess = 'signedIn' | 'creator' | 'projectMember' | 'projectAdmin';

export interface OpCall {
  ctx: AppContext;
  actor: Actor;
  request: Request;
  /** Present for project-scoped operations (checked to exist). */
  projectId: string;
  dbAlias: string;
  env?: string;
  args: unknown;
  /** Project roles of the caller in `projectId` (empty when not scoped). */
  projectRoles: string[];
  /** A multipart call's `file`, stored in a temporary file until the operation ends. */
  upload?: { path: string; filename: string; mimeType: string; size: number };
  /** The same upload as a File, for small uploads (metadata zips, logos); absent past 50 MB. */
  file?: File;
}

export interface DashboardOp {
  name: string;
  access: OpAccess;
  /** Schema-changing operations are recorded as migrations (sqlOpPlus_ variant). */
  schemaChanging?: boolean;
  run(call: OpCall): Promise<unknown>;
}

/** Parses args with a zod schema and answers 400 `{msg}` naming the first problem. */
export function parseArgs<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, args: unknown): T {
  const r = schema.safeParse(args ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  const where = i.path.map(String).join('.');
  // The path goes first unless the message names its field already ('The title is required', not 'title: The title is required').
  const last = i.path[i.path.length - 1];
  // Only a named field counts (an array index such as 0 says nothing when a message holds the number).
  const field = typeof last === 'string' ? last.replace(/[^\w]/g, '') : '';
  const named = /[A-Za-z]/.test(field) && new RegExp(`\\b${field}\\b`, 'i').test(i.message);
  throw badRequest(where && !named ? `${where}: ${i.message}` : i.message);
}
