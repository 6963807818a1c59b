/** Calls dashboard operations the way the web app does. */
import type { TestApp } from './app';

export interface OpOptions {
  project_id?: string;
  dbAlias?: string;
  env?: string;
  args?: unknown;
  plus?: boolean;
  headers?: Record<string, string>;
}

export function dashboardOp(t: TestApp, token: string | null, api: string, opts: OpOptions = {}) {
  const { plus, headers, ...rest } = opts;
  return t.request('POST', `/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, {
    body: { api, ...rest },
    headers: { 'xc-gui': 'true', ...(token ? { 'xc-auth': token } : {}), ...(headers ?? {}) },
  });
}
