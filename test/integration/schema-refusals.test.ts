/**
 * Schema changes PostgreSQL and MariaDB refuse, answered in the product's words without naming the
 * database: a text that is not a date stops a change to Date (named before anything runs, or, for a
 * text MariaDB reads only in part, by its refusal), a text column holding a value that is not a whole
 * number cannot become a link to a key made as ID (on PostgreSQL no text column can), and a column
 * that would make a MariaDB row too large is refused saying so.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { dbName, describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

// MariaDB DDL commits to disk statement by statement: on a busy machine a test of many changes takes seconds.
setDefaultTimeout(60_000);

describeEngines(
  'schema changes the database refuses',
  (engine: TestEngine) => {
    const db = `tablo_t_schema_refusals_${engine}`;
    let t: TestApp;
    let token = '';
    let projectId = '';

    const op = async (api: string, args: unknown) => {
      const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
      return { status: res.status, body: res.body };
    };
    const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });
    const uidtOf = async (tn: string, cn: string) => (await op('tableMeta', { tn })).body.columns.find((c: { cn: string }) => c.cn === cn).uidt;

    beforeAll(async () => {
      t = await makeTestApp();
      token = (await signupSuperAdmin(t)).token;
      projectId = await projectOver(t, token, engine, 'Refusals', await freshDatabase(engine, db), { inflectionColumn: 'none' });
    }, 120_000);
    afterAll(async () => {
      await t.close();
      await dropDatabase(engine, db);
    });

    test('a text that is not a date stops a change to Date, named, and nothing changes', async () => {
      expect((await op('tableCreate', { tn: 'task', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'due', uidt: 'SingleLineText' }] })).status).toBe(200);
      const day = (await rest('POST', 'Task', { due: '2024-03-01' })).body;
      for (const value of ['2024-02-30', '2024-01-05x']) {
        const bad = (await rest('POST', 'Task', { due: value })).body;
        const refused = await op('columnUpdate', { tn: 'task', cn: 'due', column: { uidt: 'Date' } });
        // MariaDB's CAST reads '2024-01-05x' as a day; its change of type refuses it, said in the data core's words.
        const said = engine === 'mysql' && value === '2024-01-05x' ? `Step 1 of 1 failed: Column 'due': "${value}" is not a date (YYYY-MM-DD)` : `Column 'due': "${value}" cannot be converted to Date; nothing was changed`;
        expect(refused).toEqual({ status: 400, body: { msg: said } });
        expect(refused.body.msg).not.toContain(dbName(db));
        expect(await uidtOf('task', 'due')).toBe('SingleLineText');
        expect((await rest('GET', `Task/${day.id}`)).body.due).toBe('2024-03-01');
        expect((await rest('DELETE', `Task/${bad.id}`)).status).toBe(200);
      }
      expect((await op('columnUpdate', { tn: 'task', cn: 'due', column: { uidt: 'Date' } })).status).toBe(200);
      expect(await uidtOf('task', 'due')).toBe('Date');
    });

    test('a text column links to a key made as ID only as whole numbers: a value that is not one is named (MariaDB); PostgreSQL asks for a Number column', async () => {
      expect((await op('tableCreate', { tn: 'team', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }] })).status).toBe(200);
      expect((await op('tableCreate', { tn: 'member', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'team_ref', uidt: 'SingleLineText' }] })).status).toBe(200);
      const team = (await rest('POST', 'Team', { name: 'Blue' })).body;
      expect((await rest('POST', 'Member', { team_ref: String(team.id) })).status).toBe(200);
      const odd = (await rest('POST', 'Member', { team_ref: 'Blue' })).body;
      const link = { type: 'hm', parentTn: 'team', childTn: 'member', childColumn: 'team_ref' };
      const refused = await op('relationCreate', link);
      const said =
        engine === 'pg'
          ? "Column 'team_ref' holds text and cannot link to 'Team', whose keys are whole numbers: make it a Number column first"
          : `Column 'team_ref' cannot link to 'Team': "Blue" is not a whole number, as its keys are; nothing was changed`;
      expect(refused).toEqual({ status: 400, body: { msg: said } });
      expect(await uidtOf('member', 'team_ref')).toBe('SingleLineText');
      expect((await rest('DELETE', `Member/${odd.id}`)).status).toBe(200);
      if (engine === 'pg') {
        expect((await op('relationCreate', link)).body).toEqual({ msg: said });
        return;
      }
      // Without it, the column becomes the link with its values; undone, it is text again.
      const linked = await op('relationCreate', link);
      expect(linked.status).toBe(200);
      expect((await rest('GET', 'Member?fields=team_ref')).body).toEqual([{ team_ref: team.id }]);
      expect((await op('migrationRollback', { id: linked.body.migration.id })).status).toBe(200);
      expect(await uidtOf('member', 'team_ref')).toBe('SingleLineText');
    });

    test.skipIf(engine !== 'mysql')('a column that would make a row larger than MariaDB allows is refused saying so', async () => {
      // 64 text columns of 255 characters (4 bytes each in utf8mb4) fill a MariaDB row: the next one does not fit.
      const columns = [{ cn: 'id', uidt: 'ID' }, ...Array.from({ length: 64 }, (_, i) => ({ cn: `c${i}`, uidt: 'SingleLineText' }))];
      expect((await op('tableCreate', { tn: 'wide', columns })).status).toBe(200);
      const refused = await op('columnAdd', { tn: 'wide', column: { cn: 'one_more', uidt: 'SingleLineText' } });
      expect(refused).toEqual({ status: 400, body: { msg: 'Step 1 of 1 failed: A row of the table would be larger than MariaDB and MySQL allow: make some of its text columns LongText, or use fewer columns' } });
      expect((await op('tableMeta', { tn: 'wide' })).body.columns.length).toBe(65);
      // As long text, it fits.
      expect((await op('columnAdd', { tn: 'wide', column: { cn: 'one_more', uidt: 'LongText' } })).status).toBe(200);
    });
  },
  ['pg', 'mysql'],
);
