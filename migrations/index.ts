/**
 * The numbered metadata migrations, embedded as text so the compiled binary carries them.
 * Add a file `NNNN_name.sql` and list it here; never edit one that has shipped.
 */
import m0001 from './0001_init.sql' with { type: 'text' };
import m0003 from './0003_acl.sql' with { type: 'text' };

export interface MetaMigration {
  version: number;
  name: string;
  sql: string;
}

export const META_MIGRATIONS: MetaMigration[] = [
  { version: 1, name: 'init', sql: m0001 },
  { version: 3, name: 'acl', sql: m0003 },
];
