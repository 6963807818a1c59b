/**
 * `tablo meta copy`: a single instance's SQLite metadata (users, a project, rights, an API token,
 * audit) copied into an empty PostgreSQL store by the real command line, then served from there;
 * a non-empty target and a source at another migration level are refused; the copy back works.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { copyMeta, MetaCopyError } from '../../src/meta/copy';
import { openSqliteMetaStore } from '../../src/meta/sqlite-store';
import { openPgMetaStore } from '../../src/meta/pg-store';
import { migrateMeta } from '../../src/meta/migrate';
import { META_MIGRATIONS } from '../../migrations/index';
import { usersRepo } from '../../src/meta/users-repo';
import type { MetaStore } from '../../src/meta/store';

const MAIN = join(import.meta.dir, '../../src/main.ts');
const tablo = (args: string[]) => Bun.spawnSync(['bun', MAIN, ...args], { env: { ...process.env }, stdout: 'pipe', stderr: 'pipe' });

describeEngines(
  'tablo meta copy',
  () => {
    let source: TestApp;
    let target: { url: string; drop(): Promise<void> };
    let projectId = '';
    let apiToken = '';
    beforeAll(async () => {
      source = await makeTestApp({ metaDb: undefined });
      expect(source.app.ctx.meta.kind).toBe('sqlite');
      const owner = (await signupSuperAdmin(source, 'owner@example.com', 'password123')).token;
      projectId = (await dashboardOp(source, owner, 'projectCreateByWeb', { args: { title: 'Copied' } })).body.id;
      apiToken = (await dashboardOp(source, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'CI', role: 'viewer' } })).body.token;
      const rule = { read: true, create: false, update: false, delete: false, where: null };
      expect((await dashboardOp(source, owner, 'aclSave', { project_id: projectId, args: { tn: 'nothing_yet', role: 'viewer', rule } })).status).toBeLessThan(500);
      target = await freshMetaDb('copy');
      // The instance stops before it moves (a running one is refused: what it wrote later would be lost).
      await source.app.close();
      await source.app.ctx.meta.close();
    }, 60_000);
    afterAll(async () => {
      await source.close().catch(() => {});
      await target.drop();
    }, 30_000);

    test('copies every row into an empty PostgreSQL store, checked, and the copy serves the same instance', async () => {
      const run = tablo(['meta', 'copy', '--from', source.dataDir, '--to', target.url]);
      expect(run.stderr.toString()).toBe('');
      expect(run.exitCode).toBe(0);
      const out = run.stdout.toString();
      expect(out).toMatch(/nc_users\s+1 rows/);
      expect(out).toMatch(/nc_projects\s+1 rows/);
      expect(out).toContain('each checked');
      expect(out).not.toContain('nc_leases');

      const moved = await makeTestApp({ dataDir: source.dataDir, metaDb: target.url });
      try {
        expect(moved.app.ctx.meta.kind).toBe('pg');
        const signin = await moved.request('POST', '/auth/signin', { body: { email: 'OWNER@example.com', password: 'password123' } });
        expect(signin.status).toBe(200);
        const list = await dashboardOp(moved, signin.body.token, 'PROJECT_READ_BY_WEB');
        expect(JSON.stringify(list.body)).toContain(projectId);
        const viaToken = await moved.request('GET', `/nc/${projectId}/api/v1/nope_table`, { headers: { 'xc-token': apiToken } });
        expect(viaToken.status).toBe(404);
        const audit = await moved.app.ctx.meta.all<{ id: number; description: string }>('SELECT id, description FROM nc_audit ORDER BY id');
        expect(audit.map((a) => a.description)).toContain("API token 'CI' created (viewer)");
        // New audit rows continue after the copied ids.
        await moved.request('POST', '/auth/signin', { body: { email: 'owner@example.com', password: 'wrong-password' } });
        const last = await moved.app.ctx.meta.get<{ id: number }>('SELECT MAX(id) AS id FROM nc_audit');
        expect(last!.id).toBeGreaterThan(audit.at(-1)!.id);
      } finally {
        await moved.app.close();
        await moved.app.ctx.meta.close();
      }
    }, 30_000);

    test('a target that holds metadata is refused and left as it was', async () => {
      const run = tablo(['meta', 'copy', '--from', join(source.dataDir, 'tablo.db'), '--to', target.url]);
      expect(run.exitCode).toBe(1);
      expect(run.stderr.toString()).toContain('The target is not empty');
      expect(tablo(['meta', 'copy', '--from', join(source.dataDir, 'missing.db'), '--to', target.url]).exitCode).toBe(1);
      expect(tablo(['meta', 'copy', '--to', target.url]).exitCode).toBe(2);
    }, 30_000);

    test('a row that changes in the source while it is copied fails the check, and nothing is written', async () => {
      const path = join(mkdtempSync(join(tmpdir(), 'tablo-busy-')), 'tablo.db');
      const real = openSqliteMetaStore(path);
      await migrateMeta(real);
      await usersRepo(real).create({ email: 'busy@example.com', passwordHash: 'h', roles: 'user' });
      // The source as a running instance would be: someone edits the user right after it was read.
      let reads = 0;
      const busy: MetaStore = {
        ...real,
        transaction: real.transaction.bind(real),
        async all<T>(sql: string, params?: unknown[]) {
          const rows = await real.all<T>(sql, params);
          if (/FROM "nc_users"/.test(sql) && ++reads === 1) await real.run("UPDATE nc_users SET firstname = 'Edited'");
          return rows;
        },
      };
      const db = await freshMetaDb('copybusy');
      const to = openPgMetaStore(db.url);
      try {
        const err = await copyMeta(busy, to).catch((e) => e);
        expect(err).toBeInstanceOf(MetaCopyError);
        expect(err.message).toContain('nc_users row 1');
        expect(err.message).toContain('firstname');
        expect((await to.get<{ n: number }>('SELECT COUNT(*) AS n FROM nc_users'))!.n).toBe(0);
      } finally {
        await Promise.all([real.close(), to.close()]);
        await db.drop();
      }
    }, 30_000);

    test('a source at another migration level is refused; PostgreSQL copies back to SQLite', async () => {
      const old = openSqliteMetaStore(join(mkdtempSync(join(tmpdir(), 'tablo-old-')), 'tablo.db'));
      await migrateMeta(old, META_MIGRATIONS.slice(0, 2));
      const db = await freshMetaDb('copyold');
      const to = openPgMetaStore(db.url);
      const err = await copyMeta(old, to).catch((e) => e);
      expect(err).toBeInstanceOf(MetaCopyError);
      expect(err.message).toContain('start this version of Tablo on the source');
      await Promise.all([old.close(), to.close()]);
      await db.drop();

      const from = openPgMetaStore(target.url);
      const back = openSqliteMetaStore(join(mkdtempSync(join(tmpdir(), 'tablo-back-')), 'tablo.db'));
      const report = await copyMeta(from, back);
      expect(report.tables.find((t) => t.name === 'nc_api_tokens')!.rows).toBe(1);
      expect((await back.get<{ email: string }>('SELECT email FROM nc_users'))!.email).toBe('owner@example.com');
      await Promise.all([from.close(), back.close()]);
    }, 30_000);

    test('an NC_DB that cannot be opened stops Tablo with one line naming the setting and the address, password masked', async () => {
      const url = new URL(target.url);
      url.password = 'not-shown';
      url.pathname = '/tablo_no_such_meta_db';
      const started = tablo(['--port', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'tablo-nometa-')), '--meta-db', url.href]);
      expect(started.exitCode).toBe(1);
      const lines = started.stderr.toString().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith(`tablo: cannot open the metadata database ${url.href.replace(':not-shown@', ':***@')} (NC_DB / --meta-db): `);
      expect(lines[0]).toContain('tablo_no_such_meta_db');
      expect(lines[0]).not.toContain('not-shown');
    }, 60_000);
  },
  ['pg'],
);
