/** Webhooks and cron jobs through the dashboard operations of api-contract section 6. */
import { dashboardOp } from './projects';

export type HookEvent = 'after.insert' | 'after.update' | 'after.delete';
export type ChatType = 'slack' | 'discord' | 'teams' | 'mattermost';
export type HookNotification =
  | { type: 'url'; method: string; url: string; headers: Record<string, string>; body?: string }
  | { type: 'email'; to: string; subject: string; body: string }
  | { type: ChatType; webhook_url?: string; body?: string };

export interface Hook { id: string; tn: string; title: string; event: HookEvent; condition: string | null; active: boolean; notification: HookNotification; secret: string | null }
export interface HookLog { id: string; event: string; status: 'success' | 'error' | 'pending'; attempt: number; response_status: number | null; error?: string; duration_ms: number; created_at: string }
export interface HookDraft { title: string; event: HookEvent; condition: string | null; active: boolean; notification: HookNotification }

export type CronAction = { type: 'url'; method: string; url: string; headers: Record<string, string>; body?: string } | { type: 'sql'; sql: string; dbAlias: string };
export interface CronJob { id: string; title: string; pattern: string; timezone: string; active: boolean; action: CronAction; next_runs: string[]; last_run_at: string | null; last_status: string | null }
export interface CronDraft { title: string; pattern: string; timezone: string; active: boolean; action: CronAction }
export interface CronRun { id: string; status: 'running' | 'success' | 'error'; manual: boolean; started_at: string; duration_ms: number | null; result?: string; error?: string }

type Scope = { projectId: string; dbAlias: string };
const call = <T>(s: Scope, api: string, args: unknown) => dashboardOp<T>(api, { projectId: s.projectId, dbAlias: s.dbAlias, args });

export const hooksApi = {
  list: async (s: Scope, tn: string) => (await call<{ data: { list: Hook[] } }>(s, 'xcHookList', { tn })).data.list,
  create: (s: Scope, tn: string, d: HookDraft) => call<{ id: string; secret: string | null }>(s, 'xcHookCreate', { tn, ...d }),
  update: (s: Scope, id: string, d: Partial<HookDraft> & { rotateSecret?: boolean }) => call<{ ok: true; secret?: string }>(s, 'xcHookUpdate', { id, ...d }),
  remove: (s: Scope, id: string) => call(s, 'xcHookDelete', { id }),
  test: (s: Scope, id: string) => call<HookLog>(s, 'xcHookTest', { id }),
  logs: async (s: Scope, id: string) => (await call<{ data: { list: HookLog[] } }>(s, 'xcHookLogs', { id, limit: 50 })).data.list,
  /** A url hook's header values in full (lists mask them). */
  headers: async (s: Scope, id: string) => (await call<{ headers: Record<string, string> }>(s, 'xcHookHeaders', { id })).headers,
  /** A chat hook's own webhook URL in full (lists mask it). */
  webhookUrl: async (s: Scope, id: string) => (await call<{ webhook_url?: string }>(s, 'xcHookHeaders', { id })).webhook_url,
};

export const cronsApi = {
  list: async (s: Scope) => (await call<{ data: { list: CronJob[] } }>(s, 'xcCronList', {})).data.list,
  create: (s: Scope, d: CronDraft) => call<CronJob>(s, 'xcCronCreate', d),
  update: (s: Scope, id: string, d: Partial<CronDraft>) => call(s, 'xcCronUpdate', { id, ...d }),
  remove: (s: Scope, id: string) => call(s, 'xcCronDelete', { id }),
  run: (s: Scope, id: string) => call<CronRun>(s, 'xcCronRun', { id }),
  logs: async (s: Scope, id: string) => (await call<{ data: { list: CronRun[] } }>(s, 'xcCronLogs', { id, limit: 50 })).data.list,
  /** A job's HTTP header values in full (lists mask them). */
  headers: async (s: Scope, id: string) => (await call<{ headers: Record<string, string> }>(s, 'xcCronHeaders', { id })).headers,
  preview: async (s: Scope, pattern: string, timezone: string) => (await call<{ next_runs: string[] }>(s, 'xcCronPreview', { pattern, timezone })).next_runs,
};
