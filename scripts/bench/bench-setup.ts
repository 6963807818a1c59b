/**
 * Set-up shared by the REST benchmark and its soak: the servers (Tablo and one baseline per engine) on
 * loopback, a bench user signed in (session), one project per engine (schema synced) with an editor API
 * token each, and the `entry` write table emptied and filled with the rows the update and delete cases use.
 */
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { MY, PG } from './dataset';

export type Engine = 'pg' | 'sqlite' | 'mysql';
export const ENGINE_NAME: Record<Engine, string> = { pg: 'PostgreSQL', sqlite: 'SQLite', mysql: 'MariaDB' };
const ROOT = join(import.meta.dir, '../..');

async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((r) => r.status < 500).catch(() => false)) return;
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

export interface Servers {
  tabloPid: number;
  tabloPort: number;
  basePort: Record<Engine, number>;
  /** Process ids of the baseline servers, per engine started. */
  basePid: Partial<Record<Engine, number>>;
  stop(): void;
}

/**
 * Starts Tablo on `port` and the baselines of `engines` on the ports after it. Tablo starts over a fresh
 * metadata store (its file in `dataDir` is removed first): the audit log of earlier runs would otherwise
 * grow from run to run and make each write dearer than in the run before.
 */
export async function startServers(port: number, dataDir: string, engines: Engine[]): Promise<Servers> {
  for (const f of ['tablo.db', 'tablo.db-wal', 'tablo.db-shm']) rmSync(join(dataDir, f), { force: true });
  const procs: { kill(): void }[] = [];
  const tablo = Bun.spawn(['bun', join(ROOT, 'src/main.ts'), '--port', String(port), '--data-dir', dataDir, '--log-requests', 'false'], { stdout: 'ignore', stderr: 'inherit' });
  procs.push(tablo);
  const basePort = { pg: port + 1, sqlite: port + 2, mysql: port + 3 };
  const basePid: Partial<Record<Engine, number>> = {};
  for (const e of engines) {
    const base = Bun.spawn(['bun', join(import.meta.dir, 'baseline-server.ts'), String(basePort[e]), e, join(dataDir, 'bench.sqlite')], { stdout: 'ignore', stderr: 'inherit' });
    procs.push(base);
    basePid[e] = base.pid;
  }
  const stop = () => procs.forEach((p) => p.kill());
  process.on('exit', stop);
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  for (const e of engines) await waitFor(`http://127.0.0.1:${basePort[e]}/list`);
  return { tabloPid: tablo.pid, tabloPort: port, basePort, basePid, stop };
}

export interface Access {
  session: string;
  projects: Record<Engine, string>;
  tokens: Record<Engine, string>;
}

/** Signs the bench user in, makes (or finds) a project per engine, syncs its schema, creates an editor token. */
export async function prepareAccess(port: number, engines: Engine[]): Promise<Access> {
  const api = async (path: string, body?: unknown, session?: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json', ...(session ? { 'xc-auth': session } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return res.json() as Promise<any>;
  };
  let auth = await api('/auth/signup', { email: 'bench@example.com', password: 'benchmark123' });
  if (!auth.token) auth = await api('/auth/signin', { email: 'bench@example.com', password: 'benchmark123' });
  const session: string = auth.token;
  const list = (await api('/dashboard', { api: 'PROJECT_READ_BY_WEB' }, session)).data.list as { id: string; title: string }[];
  const db: Record<Engine, unknown> = { pg: { client: 'pg', connection: PG }, sqlite: { client: 'sqlite', connection: { filename: 'bench.sqlite' } }, mysql: { client: 'mysql', connection: MY } };
  const projects = {} as Record<Engine, string>;
  const tokens = {} as Record<Engine, string>;
  for (const e of engines) {
    const title = `Bench ${ENGINE_NAME[e]}`;
    const id = list.find((p) => p.title === title)?.id ?? (await api('/dashboard', { api: 'projectCreateByWeb', args: { title, db: db[e] } }, session)).id;
    if (!id) throw new Error(`no project for ${e}`);
    await api('/dashboard', { api: 'metaSync', project_id: id }, session);
    const t = await api('/dashboard', { api: 'xcApiTokenCreate', project_id: id, args: { description: `bench ${new Date().toISOString()}`, role: 'editor' } }, session);
    if (!t.token) throw new Error(`no API token for ${e}: ${JSON.stringify(t)}`);
    projects[e] = id;
    tokens[e] = t.token;
  }
  return { session, projects, tokens };
}

/** Empties `entry`, then inserts ids [from, from + count) for each range; the next generated id is after `next`. */
export async function resetEntries(engine: Engine, sqliteFile: string, ranges: [number, number][], next = 1): Promise<void> {
  if (engine === 'pg') {
    const sql = postgres({ ...PG, max: 1, onnotice: () => {} });
    await sql.unsafe('TRUNCATE entry RESTART IDENTITY');
    for (const [from, count] of ranges) await sql.unsafe(`INSERT INTO entry (id, title, score) SELECT g, 'Row ' || g, 1 FROM generate_series(${from}, ${from + count - 1}) g`);
    await sql.unsafe(`ALTER TABLE entry ALTER COLUMN id RESTART WITH ${next}`);
    await sql.unsafe('VACUUM ANALYZE entry');
    // The refill's WAL is written out now, not by a checkpoint in the middle of the first write case.
    await sql.unsafe('CHECKPOINT');
    await sql.end();
  } else if (engine === 'mysql') {
    const db = await mysql.createConnection(MY);
    await db.query('TRUNCATE entry');
    for (const [from, count] of ranges) await db.query(`INSERT INTO entry (id, title, score) SELECT seq, CONCAT('Row ', seq), 1 FROM seq_${from}_to_${from + count - 1}`);
    await db.end();
  } else {
    const db = new Database(sqliteFile);
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('DELETE FROM entry');
    for (const [from, count] of ranges) db.exec(`WITH RECURSIVE g(x) AS (SELECT ${from} UNION ALL SELECT x + 1 FROM g WHERE x < ${from + count - 1}) INSERT INTO entry (id, title, score) SELECT x, 'Row ' || x, 1 FROM g`);
    db.close();
  }
}

/**
 * Deletes the `entry` rows the write cases made (every id outside the preloaded `ranges`) and writes out
 * the log, so that each target of the bulk insert starts on the same table, not on one its predecessor
 * grew by millions of rows.
 */
export async function trimNewEntries(engine: Engine, sqliteFile: string, ranges: [number, number][]): Promise<void> {
  const made = `NOT (${ranges.map(([from, count]) => `id BETWEEN ${from} AND ${from + count - 1}`).join(' OR ')})`;
  if (engine === 'pg') {
    const sql = postgres({ ...PG, max: 1, onnotice: () => {} });
    await sql.unsafe(`DELETE FROM entry WHERE ${made}`);
    await sql.unsafe('VACUUM entry');
    await sql.unsafe('CHECKPOINT');
    await sql.end();
  } else if (engine === 'mysql') {
    const db = await mysql.createConnection(MY);
    await db.query(`DELETE FROM entry WHERE ${made}`);
    await db.end();
  } else {
    const db = new Database(sqliteFile);
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(`DELETE FROM entry WHERE ${made}`);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
  }
}

/** CPU seconds (user + system) a process has used so far (from /proc). */
export function cpuSeconds(pid: number): number {
  const stat = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8') as string;
  // Fields after the command name (which may hold spaces) start at ')'; utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
/** Clock ticks per second of /proc times (USER_HZ; 100 on Linux here). */
const CLOCK_TICKS = 100;

/** Resident set size of a process in MB (from /proc). */
export function rssMb(pid: number): number {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string;
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
