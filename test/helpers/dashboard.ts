/** Calls dashboard operations the way the web app does. */
import { join } from 'node:path';
import type { TestApp } from './app';
import type { ConnectionConfig } from '../../src/sql/dialect';

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

/** The file name projectOver gives the copy of a SQLite test database (in the app's data directory). */
export const sqliteCopyName = (title: string) => `${title.replace(/\W+/g, '_')}.sqlite`;

/**
 * A project over a loaded test database (answers its id). SQLite files are copied into the app's
 * data directory first, where project files may live; the copy is named after the title.
 */
export async function projectOver(t: TestApp, token: string, client: string, title: string, cfg: ConnectionConfig, args: Record<string, unknown> = {}): Promise<string> {
  let connection = cfg.connection as Record<string, unknown>;
  if (client === 'sqlite') {
    const name = sqliteCopyName(title);
    await Bun.write(join(t.dataDir, name), Bun.file(cfg.connection.filename!));
    connection = { filename: name };
  }
  const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title, ...args, db: { client, connection } } });
  if (res.status !== 200) throw new Error(`project: ${res.text}`);
  return res.body.id;
}
