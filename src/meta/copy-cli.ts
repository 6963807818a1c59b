/**
 * `tablo meta copy --from <SQLite file or data directory> --to <postgres:// URL>` (either side may
 * be a URL, a SQLite file or a data directory): opens both stores, copies (copy.ts), prints rows per table. Exit codes:
 * 0 copied, 1 refused or failed (nothing written), 2 bad usage.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../boot/data-dir-lock';
import { parseArgs } from 'node:util';
import { copyMeta } from './copy';
import { isPgUrl, openMetaStore } from './open-store';
import type { MetaStore } from './store';
import { META_DB_FILE } from '../schema/sqlite-path';

export const META_USAGE = `Usage: tablo meta copy --from <data/tablo.db | data directory | postgres://...> --to <postgres://user:pass@host:5432/db | file | data directory>

Copies all metadata (users, projects, rights, tokens, models, audit, ...) into an empty metadata
database, checking every row; a target that already holds metadata is refused.
`;

/** A location with a scheme (`mysql://...`): not a file path. */
const OTHER_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A data directory stands for the metadata database in it (either side may name one). */
const sqliteFileOf = (location: string) => (!isPgUrl(location) && existsSync(location) && statSync(location).isDirectory() ? join(location, META_DB_FILE) : location);

const redact = (location: string) => location.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/** Runs `tablo meta <args>`; answers the exit code. */
export async function runMetaCommand(args: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let values: { from?: string; to?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true }));
  } catch (e) {
    err(`tablo meta: ${(e as Error).message}\n${META_USAGE}`);
    return 2;
  }
  if (values.help) {
    out(META_USAGE);
    return 0;
  }
  if (positionals[0] !== 'copy' || positionals.length !== 1 || !values.from || !values.to) {
    err(META_USAGE);
    return 2;
  }
  const from = sqliteFileOf(values.from);
  const to = sqliteFileOf(values.to);
  for (const [flag, location] of [['--from', from], ['--to', to]] as const) {
    if (OTHER_URL.test(location) && !isPgUrl(location)) {
      err(`tablo meta copy: ${flag} ${redact(location)}: only postgres://user:password@host:5432/database URLs or SQLite files (or data directories) are supported`);
      return 2;
    }
  }
  if (!isPgUrl(from) && !existsSync(from)) {
    err(`tablo meta copy: no metadata database at ${from}`);
    return 1;
  }
  if (!isPgUrl(to) && !existsSync(dirname(to))) {
    err(`tablo meta copy: the folder ${dirname(to)} of ${to} does not exist (create it, or give --to an existing data directory)`);
    return 1;
  }
  // The data directory of a SQLite source is held while copying: a Tablo running there would write
  // what the copy never sees (lost once the instances move to the target), or start mid-copy.
  // So is that of a SQLite target: a Tablo running there would not see the copied metadata.
  const unlocks: Array<() => void> = [];
  const unlock = () => unlocks.splice(0).forEach((u) => u());
  for (const [location, why] of [[from, 'what it writes after the copy would be lost'], [to, 'it would not see the copied metadata']] as const) {
    if (isPgUrl(location) || !existsSync(join(dirname(location), LOCK_FILE)) || (location === to && !isPgUrl(from) && resolve(dirname(from)) === resolve(dirname(to)))) continue;
    try {
      unlocks.push(lockDataDir(dirname(location)));
    } catch (e) {
      unlock();
      if (!(e instanceof DataDirInUseError)) throw e;
      err(`tablo meta copy: a Tablo is running on ${dirname(location)}: stop it first (${why})`);
      return 1;
    }
  }
  let source: MetaStore | undefined;
  let target: MetaStore | undefined;
  try {
    source = openMetaStore(from);
    target = openMetaStore(to);
    const report = await copyMeta(source, target);
    for (const t of report.tables) out(`${t.name.padEnd(28)} ${String(t.rows).padStart(8)} rows`);
    const total = report.tables.reduce((n, t) => n + t.rows, 0);
    out(`copied ${total} rows in ${report.tables.length} tables from ${redact(from)} to ${redact(to)}, each checked`);
    return 0;
  } catch (e) {
    err(`tablo meta copy: ${(e as Error).message}`);
    return 1;
  } finally {
    await source?.close().catch(() => {});
    await target?.close().catch(() => {});
    unlock();
  }
}
