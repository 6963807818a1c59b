/**
 * Validates the external database form (or raw connection JSON) into a ConnectionConfig:
 * defaults per engine, SSL options, and SQLite paths confined to the data directory's projects
 * area (or the folders allowed with NC_SQLITE_ALLOW_DIRS), see sqlite-path.ts.
 */
import { z } from 'zod';
import { badRequest, forbidden } from '../lib/errors';
import type { ConnectionConfig, Engine } from '../sql/dialect';
import { assertSslMaterial } from '../sql/ssl-material';

/** Whether a host and port match one NC_CONNECT_ALLOW pattern (`host:port`, `*` = any run of characters). */
export function connectTargetAllowed(host: string, port: number, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const target = `${host.toLowerCase()}:${port}`;
  return patterns.some((p) => new RegExp(`^${p.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(target));
}

/** Refuses (403) a server connection whose host and port no NC_CONNECT_ALLOW pattern names. */
export function assertConnectTarget(cfg: ConnectionConfig, patterns: readonly string[]): void {
  if (cfg.client === 'sqlite' || patterns.length === 0) return;
  const { host = '', port = 0 } = cfg.connection;
  if (!connectTargetAllowed(host, port, patterns)) throw forbidden(`Connections to ${host}:${port} are not allowed on this server (NC_CONNECT_ALLOW)`);
}

export const DEFAULT_PORTS: Record<Engine, number | undefined> = { pg: 5432, mysql: 3306, mssql: 1433, sqlite: undefined };

const sslSchema = z
  .object({
    mode: z.enum(['No', 'Preferred', 'Required', 'Required-CA', 'Required-IDENTITY']).default('No'),
    key: z.string().optional(),
    cert: z.string().optional(),
    ca: z.string().optional(),
  })
  .optional();

export const DbInputSchema = z.object({
  client: z.enum(['sqlite', 'pg', 'mysql', 'mysql2', 'mssql', 'postgres', 'sqlite3']).transform((c): Engine =>
    c === 'postgres' ? 'pg' : c === 'mysql2' ? 'mysql' : c === 'sqlite3' ? 'sqlite' : c,
  ),
  connection: z
    .object({
      host: z.string().optional(),
      port: z.coerce.number<string | number>().int().min(1).max(65535).optional(),
      user: z.string().optional(),
      password: z.string().optional(),
      database: z.string().optional(),
      filename: z.string().optional(),
      schema: z.string().optional(),
      ssl: sslSchema,
    })
    .default({}),
  /** 'create database if not exists' of the form. */
  createIfNotExists: z.boolean().optional(),
});

export type DbInput = z.input<typeof DbInputSchema>;

/**
 * A host name or address (IPv6 in brackets or not, an optional :port as drivers take it): no scheme,
 * user, path or space. A connection URL pasted into the Host field otherwise reached the driver.
 */
const HOST = /^[\p{L}\p{N}._\-:[\]%]+$/u;

export { confineSqlitePath } from './sqlite-path';
import { confineSqlitePath } from './sqlite-path';

/** Parses and normalises a connection; the sqlite filename comes back absolute. */
export function parseDbInput(input: unknown, dataDir: string, allowDirs: string[]): ConnectionConfig & { createIfNotExists: boolean } {
  const r = DbInputSchema.safeParse(input);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw badRequest(`Invalid database connection: ${i.path.join('.') || 'value'}: ${i.message}`);
  }
  const { client, connection, createIfNotExists } = r.data;
  if (client === 'sqlite') {
    if (!connection.filename) throw badRequest('Invalid database connection: a SQLite file is required');
    return { client, connection: { filename: confineSqlitePath(connection.filename, dataDir, allowDirs) }, createIfNotExists: !!createIfNotExists };
  }
  const host = connection.host?.trim();
  if (host && !HOST.test(host)) {
    // Not echoed: a pasted URL may hold a password.
    throw badRequest('Invalid database connection: the host is a name or an address, such as db.example.com or 10.0.0.5, not a URL');
  }
  if (!connection.database) throw badRequest('Invalid database connection: the database name is required');
  if (connection.ssl?.mode && connection.ssl.mode !== 'No') assertSslMaterial(connection.ssl);
  return {
    client,
    connection: {
      ...connection,
      host: host || '127.0.0.1',
      port: connection.port ?? DEFAULT_PORTS[client],
      ssl: connection.ssl?.mode && connection.ssl.mode !== 'No' ? connection.ssl : undefined,
    },
    createIfNotExists: !!createIfNotExists,
  };
}
