/** Where a database lives, in words: for the Project Metadata tab's list of connections. */
import type { EnvDbDetail } from '../../api/project-meta';
import { t } from '../../i18n';
import { engineName } from '../../lib/engine-names';

/**
 * Engine, user, host, port and database (never the password). Members who do not edit connections
 * get no connection from the server: only the engine is named, with no empty fields.
 */
export function connectionLabel(d: EnvDbDetail): string {
  if (d.isXcdb) return t('schema.meta.embedded');
  const engine = engineName(d.client);
  const c = d.connection;
  if (!c) return engine;
  if (d.client === 'sqlite') return t('schema.meta.sqliteFile', { file: c.filename ?? '' });
  return `${engine} ${c.user ? `${c.user}@` : ''}${c.host ?? ''}${c.port ? `:${c.port}` : ''}/${c.database ?? ''}`;
}
