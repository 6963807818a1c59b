/**
 * `tablo meta copy --from <SQLite file or data directory> --to <postgres:// URL>` (either side may
 * be a file or a URL): opens both stores, copies (copy.ts), prints rows per table. Exit codes:
 * 0 copied, 1 refused or failed (nothing written), 2 bad usage.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../boot/data-dir-lock';
import { parseArgs } from 'node:util';
import { copyMeta } from './copy';
import { isPgUrl, openMetaStore } from './open-store';
import type { MetaStore } from './store';

export const META_USAGE = `Usage: tablo meta copy --from <data/tablo.db | data directory | postgres://...> --to <postgres://user:pass@host:5432/db | file>

Copies all metadata (users, projects, rights, tokens, models, audit, ...) into an empty metadata
database, checking every row; a target that already holds metadata is refused.
`;

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
  let from = values.from;
  if (!isPgUrl(from)) {
    if (existsSync(from) && statSync(from).isDirectory()) from = join(from, 'tablo.db');
    if (!existsSync(from)) {
      err(`tablo meta copy: no metadata database at ${from}`);
      return 1;
    }
  }
  // The data directory of a SQLite source is held while copying: a Tablo running there would write
  // what the copy never sees (lost once the instances move to the target), or start mid-copy.
  let unlock = () => {};
  if (!isPgUrl(from) && existsSync(join(dirname(from), LOCK_FILE))) {
    try {
      unlock = lockDataDir(dirname(from));
    } catch (e) {
      if (!(e instanceof DataDirInUseError)) throw e;
      err(`tablo meta copy: a Tablo is running on ${dirname(from)}: stop it first (what it writes after the copy would be lost)`);
      return 1;
    }
  }
  let source: MetaStore | undefined;
  let target: MetaStore | undefined;
  try {
    source = openMetaStore(from);
    target = openMetaStore(values.to);
    const report = await copyMeta(source, target);
    for (const t of report.tables) out(`${t.name.padEnd(28)} ${String(t.rows).padStart(8)} rows`);
    const total = report.tables.reduce((n, t) => n + t.rows, 0);
    out(`copied ${total} rows in ${report.tables.length} tables from ${redact(from)} to ${redact(values.to)}, each checked`);
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
