/**
 * The numbered metadata migrations, embedded as text so the compiled binary carries them.
 * Add a file `NNNN_name.sql` and list it here; never edit one that has shipped.
 */
import m0001 from './0001_init.sql' with { type: 'text' };
import m0002 from './0002_schema_migrations.sql' with { type: 'text' };

export interface MetaMigration {
  version: number;
  name: string;
  sql: string;
}

export const META_MIGRATIONS: MetaMigration[] = [
  { version: 1, name: 'init', sql: m0001 },
  { version: 2, name: 'schema_migrations', sql: m0002 },
];
