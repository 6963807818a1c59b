/**
 * The numbered metadata migrations, embedded as text so the compiled binary carries them.
 * Add a file `NNNN_name.sql` and list it here; never edit one that has shipped. Numbers need not
 * be consecutive (they are reserved per change), only unique and increasing.
 */
import m0001 from './0001_init.sql' with { type: 'text' };
import m0001pg from './0001_init.pg.sql' with { type: 'text' };
import m0002 from './0002_schema_migrations.sql' with { type: 'text' };
import m0003 from './0003_acl.sql' with { type: 'text' };
import m0004 from './0004_oauth_profile.sql' with { type: 'text' };
import m0005 from './0005_security.sql' with { type: 'text' };
import m0006 from './0006_views.sql' with { type: 'text' };
import m0007 from './0007_sql_client.sql' with { type: 'text' };
import m0008 from './0008_hooks_crons.sql' with { type: 'text' };
import m0010 from './0010_api_client.sql' with { type: 'text' };
import m0011 from './0011_comments.sql' with { type: 'text' };
import m0012 from './0012_plugins.sql' with { type: 'text' };
import m0013 from './0013_comment_edits.sql' with { type: 'text' };
import m0014 from './0014_invite_links.sql' with { type: 'text' };
import m0017 from './0017_audit_key_range.sql' with { type: 'text' };
import m0018 from './0018_refresh_successor.sql' with { type: 'text' };
import m0019 from './0019_cron_run_holder.sql' with { type: 'text' };

export interface MetaMigration {
  version: number;
  name: string;
  sql: string;
  /** The PostgreSQL text, where the portable one cannot say the same (0001 only; new files are portable). */
  pg?: string;
}

export const META_MIGRATIONS: MetaMigration[] = [
  { version: 1, name: 'init', sql: m0001, pg: m0001pg },
  { version: 2, name: 'schema_migrations', sql: m0002 },
  { version: 3, name: 'acl', sql: m0003 },
  { version: 4, name: 'oauth_profile', sql: m0004 },
  { version: 5, name: 'security', sql: m0005 },
  { version: 6, name: 'views', sql: m0006 },
  { version: 7, name: 'sql_client', sql: m0007 },
  { version: 8, name: 'hooks_crons', sql: m0008 },
  { version: 10, name: 'api_client', sql: m0010 },
  { version: 11, name: 'comments', sql: m0011 },
  { version: 12, name: 'plugins', sql: m0012 },
  { version: 13, name: 'comment_edits', sql: m0013 },
  { version: 14, name: 'invite_links', sql: m0014 },
  { version: 17, name: 'audit_key_range', sql: m0017 },
  { version: 18, name: 'refresh_successor', sql: m0018 },
  { version: 19, name: 'cron_run_holder', sql: m0019 },
];
