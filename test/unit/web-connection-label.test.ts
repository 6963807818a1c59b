/** The Project Metadata tab's connection label: the whole connection for owners and creators, the engine alone for others. */
import { expect, test } from 'bun:test';
import { connectionLabel } from '../../web/src/features/meta/connection-label';
import type { EnvDbDetail } from '../../web/src/api/project-meta';

const base = { dbAlias: 'db', isXcdb: false, inflection: { table: 'camelize', column: 'camelize' } };

test('owners and creators see user, host, port and database', () => {
  const d: EnvDbDetail = { ...base, client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'app', database: 'shop', hasPassword: true } };
  expect(connectionLabel(d)).toBe('PostgreSQL app@db.example.com:5432/shop');
});

test('without a connection (other roles) only the engine is named, with no empty fields', () => {
  for (const [client, name] of [['pg', 'PostgreSQL'], ['mysql', 'MySQL / MariaDB'], ['sqlite', 'SQLite']] as const) {
    expect(connectionLabel({ ...base, client })).toBe(name);
  }
});
