/**
 * Schema changes through the dashboard operations, per engine (SQLite, PostgreSQL, MariaDB):
 * tables, columns of every logical type, type changes on filled columns, relations, previews,
 * failures naming their step, and migrations listed, rolled back and applied again.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';
import { openDatabase } from '../../src/sql/open-database';
import type { ConnectionConfig, Database } from '../../src/sql/dialect';
import { onSchemaEvent, type SchemaEvent } from '../../src/schema/schema-events';

// MariaDB DDL commits to disk statement by statement: on a busy machine a test of many changes takes seconds.
setDefaultTimeout(30_000);

describeEngines('schema changes', (engine: TestEngine) => {
  const name = `tablo_t_ddl_changes_${engine}`;
  let t: TestApp;
  let token: string;
  let projectId: string;
  let cfg: ConnectionConfig;
  let raw: Database;
  const events: string[] = [];
  let stopListening = () => {};

  const op = async (api: string, args: unknown, status = 200) => {
    const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    if (res.status !== status) throw new Error(`${api}: expected ${status}, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const rest = (method: string, path: string, body?: unknown) =>
    t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });
  const sqlRows = async (sql: string) => raw.driver.query<Record<string, unknown>>({ sql, params: [] });
  const q = (n: string) => raw.dialect.quoteId(n);

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    cfg = await freshDatabase(engine, name);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
      cfg = { client: 'sqlite', connection: { filename: join(t.dataDir, `${name}.sqlite`) } };
    }
    const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Ddl ${engine}`, inflectionColumn: 'none', db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    projectId = res.body.id;
    raw = await openDatabase(cfg);
    stopListening = onSchemaEvent((e: SchemaEvent) => {
      if (e.projectId === projectId) events.push(e.kind === 'columnRenamed' || e.kind === 'columnAliasRenamed' ? `${e.kind}:${e.tn}.${e.from}>${e.to}` : e.kind === 'tableRenamed' ? `${e.kind}:${e.from}>${e.to}` : e.kind === 'columnDropped' ? `${e.kind}:${e.tn}.${e.cn}` : `${e.kind}:${e.tn}`);
    });
  });
  afterAll(async () => {
    stopListening();
    await raw?.driver.close();
    await t.close();
    await dropDatabase(engine, name);
  });

  test('a schema change naming an environment other than the working one changes nothing (404 for an unknown one)', async () => {
    const unknown = await dashboardOp(t, token, 'tableCreate', { project_id: projectId, env: 'nope', args: { tn: 'stray' }, plus: true });
    expect(unknown.status).toBe(404);
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).not.toContain('stray');
    expect((await sqlRows(engine === 'sqlite' ? "SELECT name FROM sqlite_master WHERE name = 'stray'" : `SELECT table_name FROM information_schema.tables WHERE table_name = 'stray'`)).length).toBe(0);
  });

  test('tableCreate: preview changes nothing; default columns id, title, created_at, updated_at', async () => {
    const graphql = (query: string) => t.request('POST', `/nc/${projectId}/v1/graphql`, { body: { query }, headers: { 'xc-auth': token } });
    expect((await graphql('{ __typename }')).status).toBe(200); // builds and caches the schema of the empty database
    const preview = await op('tableCreate', { tn: 'task', _tn: 'Tasks', preview: true });
    expect(preview.statements.length).toBe(1);
    expect(preview.statements[0]).toStartWith(`CREATE TABLE ${q('task')}`);
    expect(preview.migration).toBeUndefined();
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).not.toContain('task');

    const made = await op('tableCreate', { tn: 'task', _tn: 'Tasks' });
    expect(made.migration).toMatchObject({ status: 'applied', title: "Create table 'task'" });
    expect(made.table._tn).toBe('Tasks');
    expect(made.table.columns.map((c: { cn: string; uidt: string }) => `${c.cn}:${c.uidt}`)).toEqual(['id:ID', 'title:SingleLineText', 'created_at:DateTime', 'updated_at:DateTime']);
    const row = await rest('POST', 'Tasks', { title: 'first' });
    expect(row.status).toBe(200);
    expect(row.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2} /);
    const evo = await sqlRows(`SELECT ${q('id')}, ${q('title')} FROM ${q('_evolutions')}`);
    expect(evo).toEqual([{ id: made.migration.id, title: "Create table 'task'" }]);
    // GraphQL sees the new table at once (its cached schema follows the model).
    expect((await graphql('{ TasksList { title } }')).body).toEqual({ data: { TasksList: [{ title: 'first' }] } });
    expect((await op('tableCreate', { tn: 'task' }, 409)).msg).toContain("'task' already exists");
    expect((await op('tableCreate', { tn: 'nc_mine' }, 400)).msg).toContain('reserved');
  });

  test('columnAdd for every logical type; writes are checked by logical type', async () => {
    const types: [string, string, Record<string, unknown>?][] = [
      ['notes', 'LongText'], ['qty', 'Number'], ['price', 'Decimal', { dtxp: '10,2' }], ['cost', 'Currency'], ['share', 'Percent'],
      ['stars', 'Rating'], ['spent', 'Duration'], ['done', 'Checkbox', { default: false }], ['due', 'Date'], ['seen', 'DateTime'],
      ['at', 'Time'], ['email', 'Email', { _cn: 'Email' }], ['site', 'URL'], ['phone', 'PhoneNumber'],
      ['status', 'SingleSelect', { options: ['todo', 'doing', 'done'] }], ['tags', 'MultiSelect', { options: ['a', 'b', 'c'] }],
      ['data', 'JSON'], ['files', 'Attachment'], ['code', 'SingleLineText', { unique: true, dtxp: '32' }],
    ];
    for (const [cn, uidt, extra] of types) await op('columnAdd', { tn: 'task', column: { cn, uidt, ...extra } });
    const meta = await op('tableMeta', { tn: 'task' });
    const byCn = Object.fromEntries(meta.columns.map((c: { cn: string }) => [c.cn, c]));
    for (const [cn, uidt] of types) expect(`${cn}:${byCn[cn].uidt}`).toBe(`${cn}:${uidt}`);
    expect(byCn.status.enumValues).toEqual(['todo', 'doing', 'done']);
    expect(byCn.code.unique).toBe(true);
    expect(byCn.email._cn).toBe('Email');

    const ok = await rest('POST', 'Tasks', {
      title: 'full', email: 'ada@example.com', site: 'https://example.com/x', phone: '+44 20 7946 0958', status: 'doing', tags: ['a', 'c'],
      stars: 4, data: { k: [1, 2] }, files: [{ url: 'https://example.com/f.png' }], price: '12.50', done: true, code: 'T-1',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ Email: 'ada@example.com', tags: 'a,c', stars: 4, data: { k: [1, 2] }, done: true });
    for (const [body, words] of [
      [{ email: 'not-an-email' }, "Column 'Email'"],
      [{ site: 'not a url' }, "Column 'site'"],
      [{ phone: 'call me' }, "Column 'phone'"],
      [{ status: 'later' }, "Column 'status'"],
      [{ tags: ['a', 'z'] }, "Column 'tags'"],
      [{ stars: 11 }, "Column 'stars'"],
    ] as const) {
      const res = await rest('POST', 'Tasks', { title: 'bad', ...body });
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain(words);
    }
    expect((await rest('POST', 'Tasks', { title: 'dup', code: 'T-1' })).status).toBe(409);

    // Logical types live in metadata and survive a schema sync.
    await op('metaSync', {});
    const synced = await op('tableMeta', { tn: 'task' });
    expect(synced.columns.find((c: { cn: string }) => c.cn === 'email').uidt).toBe('Email');
    expect(synced.columns.find((c: { cn: string }) => c.cn === 'tags').enumValues).toEqual(['a', 'b', 'c']);
  });

  test('changes sent at the same time run one after the other', async () => {
    const both = await Promise.all([
      op('columnAdd', { tn: 'task', column: { cn: 'one', uidt: 'Number' } }),
      op('columnAdd', { tn: 'task', column: { cn: 'two', uidt: 'Number' } }),
    ]);
    expect(both.map((r) => r.migration.status)).toEqual(['applied', 'applied']);
    const cols = (await op('tableMeta', { tn: 'task' })).columns.map((c: { cn: string }) => c.cn);
    expect(cols).toEqual(expect.arrayContaining(['one', 'two']));
  });

  test('columnUpdate: a text column full of numbers becomes a Number; values are converted', async () => {
    await op('columnAdd', { tn: 'task', column: { cn: 'points', uidt: 'SingleLineText' } });
    for (const p of ['10', '25', null]) expect((await rest('POST', 'Tasks', { title: `p${p}`, points: p })).status).toBe(200);
    const res = await op('columnUpdate', { tn: 'task', cn: 'points', column: { uidt: 'Number' } });
    expect(res.migration.status).toBe('applied');
    expect(res.table.columns.find((c: { cn: string }) => c.cn === 'points')).toMatchObject({ uidt: 'Number', kind: expect.stringMatching(/integer|bigint/) });
    const list = await rest('GET', 'Tasks?where=(points,gt,0)&sort=points&fields=points');
    expect(list.body.map((r: { points: number }) => r.points)).toEqual([10, 25]);
    expect((await rest('POST', 'Tasks', { title: 'x', points: 'many' })).status).toBe(400);
  });

  test('columnUpdate: values that cannot be converted fail the change, which changes nothing', async () => {
    await op('columnAdd', { tn: 'task', column: { cn: 'label', uidt: 'SingleLineText' } });
    expect((await rest('POST', 'Tasks', { title: 'l', label: 'not a number' })).status).toBe(200);
    const failed = await op('columnUpdate', { tn: 'task', cn: 'label', column: { uidt: 'Number' } }, 400);
    expect(failed.msg).toBe(`Column 'label': "not a number" cannot be converted to Number; nothing was changed`);
    const col = (await op('tableMeta', { tn: 'task' })).columns.find((c: { cn: string }) => c.cn === 'label');
    expect(col.uidt).toBe('SingleLineText');
    const rows = await rest('GET', 'Tasks?where=(label,eq,not a number)&fields=label');
    expect(rows.body).toEqual([{ label: 'not a number' }]);
    // SQLite finds the value once the table is rebuilt (a failed migration); PostgreSQL and MariaDB before anything runs.
    const list = (await op('migrationList', {})).list;
    if (engine === 'sqlite') {
      expect(list[0]).toMatchObject({ status: 'failed', title: "Change column 'label' of 'task'" });
      expect(list[0].error).toBeString();
    } else expect(list[0].title).not.toBe("Change column 'label' of 'task'");
  });

  test('columnUpdate: text that is not a date fails a change to Date, DateTime or Time, which changes nothing; dates convert', async () => {
    for (const [cn, uidt, fits] of [['due_text', 'Date', '2024-03-01'], ['at_text', 'DateTime', '2024-03-01 10:30:00'], ['clock_text', 'Time', '10:30:00']] as const) {
      await op('columnAdd', { tn: 'task', column: { cn, uidt: 'SingleLineText' } });
      const bad = (await rest('POST', 'Tasks', { title: `not a ${uidt}`, [cn]: 'Angus Young' })).body;
      expect((await rest('POST', 'Tasks', { title: `a ${uidt}`, [cn]: fits })).status).toBe(200);
      const failed = await op('columnUpdate', { tn: 'task', cn, column: { uidt } }, 400);
      // SQLite finds the value once the table is rebuilt; PostgreSQL and MariaDB before anything runs.
      expect(failed.msg).toBe(`Column '${cn}': "Angus Young" cannot be converted to ${uidt}; nothing was changed`);
      expect((await op('tableMeta', { tn: 'task' })).columns.find((c: { cn: string }) => c.cn === cn).uidt).toBe('SingleLineText');
      expect((await rest('GET', `Tasks?where=(${cn},eq,Angus Young)&fields=${cn}`)).body).toEqual([{ [cn]: 'Angus Young' }]);
      // Without the text that is not a date, the change runs.
      expect((await rest('DELETE', `Tasks/${bad.id}`)).status).toBe(200);
      expect((await op('columnUpdate', { tn: 'task', cn, column: { uidt } })).migration.status).toBe('applied');
      expect((await op('tableMeta', { tn: 'task' })).columns.find((c: { cn: string }) => c.cn === cn).uidt).toBe(uidt);
    }
  });

  test('columnUpdate: a type change that would alter values is refused naming one; its preview lists them; acceptLoss runs it', async () => {
    const cases: [string, string, unknown, string, string, Record<string, unknown>?][] = [
      ['ratio', 'Decimal', 12.5, 'Number', "Column 'ratio': 12.5 would become 13"],
      ['met', 'DateTime', '2024-01-05 10:30:00', 'Date', `Column 'met': "2024-01-05 10:30:00" would lose its time of day`],
      ['essay', 'LongText', 'x'.repeat(300), 'SingleLineText', 'is longer than 255 characters and would be cut'],
      ['flags', 'MultiSelect', 'a,b', 'SingleSelect', `Column 'flags': "a,b" holds several choices, where a single select holds one`, { options: ['a', 'b'] }],
      ['votes', 'Number', 5, 'Checkbox', "Column 'votes': 5 would become true"],
    ];
    // SQLite keeps 12.5 in an integer column and 300 characters in a varchar(255): nothing is lost there.
    const kept = engine === 'sqlite' ? ['ratio', 'essay'] : [];
    for (const [cn, from, value, to, says, extra] of cases) {
      await op('columnAdd', { tn: 'task', column: { cn, uidt: from, ...extra } });
      expect((await rest('POST', 'Tasks', { title: `loss ${cn}`, [cn]: value })).status).toBe(200);
      const change = { tn: 'task', cn, column: { uidt: to, ...extra } };
      const preview = await op('columnUpdate', { ...change, preview: true });
      if (kept.includes(cn)) {
        expect(preview.losses).toBeUndefined();
        continue;
      }
      expect(preview.losses).toEqual([expect.stringContaining(says)]);
      const refused = await op('columnUpdate', change, 400);
      expect(refused.msg).toContain(says);
      expect(refused.msg).toContain('Nothing was changed');
      expect((await op('tableMeta', { tn: 'task' })).columns.find((c: { cn: string }) => c.cn === cn).uidt).toBe(from);
      expect((await rest('GET', `Tasks?where=(title,eq,loss ${cn})&fields=${cn}`)).body).toEqual([{ [cn]: value }]);
    }
    // Values that convert as they are need no confirmation.
    await op('columnAdd', { tn: 'task', column: { cn: 'whole', uidt: 'Decimal' } });
    expect((await rest('POST', 'Tasks', { title: 'whole', whole: 12 })).status).toBe(200);
    expect((await op('columnUpdate', { tn: 'task', cn: 'whole', column: { uidt: 'Number' }, preview: true })).losses).toBeUndefined();
    expect((await op('columnUpdate', { tn: 'task', cn: 'whole', column: { uidt: 'Number' } })).migration.status).toBe('applied');
    // Confirmed: the change runs.
    const accepted = await op('columnUpdate', { tn: 'task', cn: 'votes', column: { uidt: 'Checkbox' }, acceptLoss: true });
    expect(accepted.table.columns.find((c: { cn: string }) => c.cn === 'votes').uidt).toBe('Checkbox');
    expect((await rest('GET', 'Tasks?where=(title,eq,loss votes)&fields=votes')).body).toEqual([{ votes: true }]);
  });

  test('columnUpdate: a Checkbox becomes a Number and back, keeping its values', async () => {
    await op('columnAdd', { tn: 'task', column: { cn: 'ticked', uidt: 'Checkbox' } });
    for (const ticked of [true, false]) expect((await rest('POST', 'Tasks', { title: `ticked ${ticked}`, ticked })).status).toBe(200);
    const read = async () => (await rest('GET', 'Tasks?where=(title,like,ticked%)&sort=title&fields=ticked')).body.map((r: { ticked: unknown }) => r.ticked);
    await op('columnUpdate', { tn: 'task', cn: 'ticked', column: { uidt: 'Number' } });
    expect(await read()).toEqual([0, 1]);
    await op('columnUpdate', { tn: 'task', cn: 'ticked', column: { uidt: 'Checkbox' } });
    expect(await read()).toEqual([false, true]);
  });

  test('columnUpdate: a JSON column becomes text holding the same JSON, not a quoted string', async () => {
    await op('columnAdd', { tn: 'task', column: { cn: 'doc', uidt: 'JSON' } });
    expect((await rest('POST', 'Tasks', { title: 'doc', doc: { a: [1, 'two'] } })).status).toBe(200);
    await op('columnUpdate', { tn: 'task', cn: 'doc', column: { uidt: 'LongText' } });
    const [row] = (await rest('GET', 'Tasks?where=(title,eq,doc)&fields=doc')).body;
    expect(typeof row.doc).toBe('string');
    expect(JSON.parse(row.doc)).toEqual({ a: [1, 'two'] });
  });

  test('columnUpdate: rename, display name, nullable, default, unique; columnReorder; columnDelete', async () => {
    const renamed = await op('columnUpdate', { tn: 'task', cn: 'notes', column: { cn: 'details', _cn: 'Details' } });
    const det = renamed.table.columns.find((c: { cn: string }) => c.cn === 'details');
    expect(det).toMatchObject({ _cn: 'Details', uidt: 'LongText' });
    expect(renamed.table.columns.some((c: { cn: string }) => c.cn === 'notes')).toBe(false);

    await op('columnUpdate', { tn: 'task', cn: 'qty', column: { default: 7 } });
    const r = await rest('POST', 'Tasks', { title: 'defaulted' });
    expect(r.body.qty).toBe(7);
    const nn = await op('columnUpdate', { tn: 'task', cn: 'title', column: { nullable: false, default: 'untitled' } });
    expect(nn.table.columns.find((c: { cn: string }) => c.cn === 'title').nullable).toBe(false);
    expect((await rest('POST', 'Tasks', { title: null })).status).toBe(400);

    await op('columnUpdate', { tn: 'task', cn: 'phone', column: { unique: true } });
    expect((await op('tableMeta', { tn: 'task' })).columns.find((c: { cn: string }) => c.cn === 'phone').unique).toBe(true);
    await op('columnUpdate', { tn: 'task', cn: 'phone', column: { unique: false } });
    expect((await op('tableMeta', { tn: 'task' })).columns.find((c: { cn: string }) => c.cn === 'phone').unique).toBe(false);

    const reordered = await op('columnReorder', { tn: 'task', order: ['title', 'id'] });
    expect(reordered.table.columns.slice(0, 3).map((c: { cn: string }) => c.cn)).toEqual(['title', 'id', 'created_at']);

    const del = await op('columnDelete', { tn: 'task', cn: 'at' });
    expect(del.table.columns.some((c: { cn: string }) => c.cn === 'at')).toBe(false);
    expect((await op('columnDelete', { tn: 'task', cn: 'id' }, 400)).msg).toContain('primary key');
    // The rows are all still there after every change above.
    expect((await rest('GET', 'Tasks?where=(title,eq,full)&fields=email')).body).toEqual([{ Email: 'ada@example.com' }]);
  });

  test('relations: has-many adds a foreign key column; many-to-many a junction; both removed again', async () => {
    await op('tableCreate', { tn: 'project', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }] });
    const hm = await op('relationCreate', { type: 'hm', parentTn: 'project', childTn: 'task', onDelete: 'SET NULL' });
    expect(hm.table.columns.some((c: { cn: string }) => c.cn === 'project_id')).toBe(true);
    expect(hm.table.relations).toContainEqual(expect.objectContaining({ type: 'bt', table: 'Project' }));
    const p = await rest('POST', 'Project', { name: 'Apollo' });
    expect((await rest('POST', 'Tasks', { title: 'linked', project_id: p.body.id })).status).toBe(200);
    expect((await rest('POST', 'Tasks', { title: 'orphan', project_id: 999 })).status).toBe(409);

    // A foreign key over values that point at no row is refused, and changes nothing.
    await op('columnAdd', { tn: 'task', column: { cn: 'owner_ref', uidt: 'Number' } });
    expect((await rest('POST', 'Tasks', { title: 'stray', owner_ref: 999 })).status).toBe(200);
    const stray = await dashboardOp(t, token, 'relationCreate', { project_id: projectId, args: { type: 'hm', parentTn: 'project', childTn: 'task', childColumn: 'owner_ref' } });
    expect([400, 409]).toContain(stray.status);
    expect(stray.body.msg).toBeString();
    expect((await op('tableMeta', { tn: 'task' })).relations.filter((r: { type: string }) => r.type === 'bt').length).toBe(1);
    await op('columnDelete', { tn: 'task', cn: 'owner_ref' });

    await op('tableCreate', { tn: 'tag', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'label', uidt: 'SingleLineText' }] });
    const mm = await op('relationCreate', { type: 'mm', parentTn: 'task', childTn: 'tag' });
    expect(mm.statements[0]).toStartWith(`CREATE TABLE ${q('task_tag')}`);
    expect(mm.table.relations).toContainEqual(expect.objectContaining({ type: 'mm', table: 'Tag' }));

    // A change that rebuilds the SQLite table keeps its rows, indexes and foreign keys, also under a view.
    await raw.driver.execute({ sql: `CREATE INDEX ${q('task_title_ix')} ON ${q('task')} (${q('title')})`, params: [] });
    if (engine === 'sqlite') await raw.driver.execute({ sql: `CREATE VIEW ${q('task_titles')} AS SELECT ${q('title')} FROM ${q('task')}`, params: [] });
    await op('columnUpdate', { tn: 'task', cn: 'spent', column: { uidt: 'Decimal', nullable: true, default: 1.5 } });
    const after = await op('tableMeta', { tn: 'task' });
    expect(after.relations).toContainEqual(expect.objectContaining({ type: 'bt', table: 'Project' }));
    expect((await rest('GET', 'Tasks?where=(title,eq,linked)&fields=project_id')).body).toEqual([{ project_id: p.body.id }]);
    const ix = engine === 'sqlite' ? await sqlRows("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'task_title_ix'") : [{}];
    expect(ix.length).toBe(1);
    expect((await rest('POST', 'Tasks', { title: 'orphan', project_id: 998 })).status).toBe(409);
    if (engine === 'sqlite') {
      expect((await sqlRows(`SELECT COUNT(*) AS n FROM ${q('task_titles')}`))[0]!.n).toBeGreaterThan(0);
      await raw.driver.execute({ sql: `DROP VIEW ${q('task_titles')}`, params: [] });
    }

    await op('relationDelete', { type: 'mm', parentTn: 'task', childTn: 'tag' });
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).not.toContain('task_tag');
    const unlinked = await op('relationDelete', { type: 'hm', parentTn: 'project', childTn: 'task' });
    expect(unlinked.table.columns.some((c: { cn: string }) => c.cn === 'project_id')).toBe(false);
    expect(unlinked.table.relations.filter((r: { type: string }) => r.type === 'bt')).toEqual([]);
  });

  test('a failing step is named; the model matches the database afterwards', async () => {
    await op('columnAdd', { tn: 'task', column: { cn: 'grp', uidt: 'SingleLineText' } });
    for (const title of ['g1', 'g2']) expect((await rest('POST', 'Tasks', { title, grp: 'A' })).status).toBe(200);
    const preview = await op('columnUpdate', { tn: 'task', cn: 'grp', column: { cn: 'group_name', unique: true }, preview: true });
    const failed = await op('columnUpdate', { tn: 'task', cn: 'grp', column: { cn: 'group_name', unique: true } }, 409);
    const meta = await op('tableMeta', { tn: 'task' });
    if (engine === 'mysql') {
      // DDL commits one statement at a time: the rename ran, and is undone.
      expect(preview.statements.length).toBe(2);
      expect(failed.msg).toStartWith('Step 2 of 2 failed: ');
      expect(failed.msg).toEndWith('(step 1 was undone)');
    } else {
      expect(failed.msg).toMatch(/^Step \d+ of \d+ failed: /);
    }
    expect(meta.columns.map((c: { cn: string }) => c.cn)).toContain('grp');
    expect(meta.columns.find((c: { cn: string }) => c.cn === 'grp').unique).toBe(false);
  });

  test('tableRename: display name alone, then the SQL name; tableDelete', async () => {
    const shown = await op('tableRename', { tn: 'project', _tn: 'Projects' });
    expect(shown.migration).toBeNull();
    expect(shown.statements).toEqual([]);
    expect(shown.table).toMatchObject({ tn: 'project', _tn: 'Projects' });
    const moved = await op('tableRename', { tn: 'project', newTn: 'programme' });
    expect(moved.table).toMatchObject({ tn: 'programme', _tn: 'Projects' });
    expect((await rest('GET', 'Projects')).body).toEqual([expect.objectContaining({ name: 'Apollo' })]);
    const gone = await op('tableDelete', { tn: 'programme' });
    expect(gone.table).toBeUndefined();
    expect(events).toEqual([
      'columnRenamed:task.notes>details', 'columnAliasRenamed:task.notes>Details', 'columnDropped:task.at', 'columnDropped:task.owner_ref', 'tableDropped:task_tag', 'columnDropped:task.project_id',
      'tableRenamed:project>programme', 'tableDropped:programme',
    ]);
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).not.toContain('programme');
  });

  test('migrations: listed newest first, rolled back one at a time and all, applied again', async () => {
    const before = (await op('migrationList', {})).list;
    expect(before[0]).toMatchObject({ title: "Delete table 'programme'", status: 'applied' });
    expect(before.at(-1)).toMatchObject({ title: "Create table 'task'", status: 'applied' });
    expect(before[0].up.length).toBeGreaterThan(0);
    expect(before[0].down.length).toBeGreaterThan(0);

    // Not the newest: refused.
    expect((await op('migrationRollback', { id: before[1].id }, 409)).msg).toContain('first');
    await op('migrationRollback', { id: before[0].id });
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).toContain('programme');
    expect((await op('migrationList', {})).list[0].status).toBe('pending');
    // Rolling back a rename takes the display name back along; applying it again, forth.
    expect(before[1].title).toBe("Rename table 'project' to 'programme'");
    await op('migrationRollback', { id: before[1].id });
    expect(await op('tableMeta', { tn: 'project' })).toMatchObject({ tn: 'project', _tn: 'Projects' });
    await op('migrationApply', { id: before[1].id });
    expect(await op('tableMeta', { tn: 'programme' })).toMatchObject({ tn: 'programme', _tn: 'Projects' });
    expect(events.slice(-2)).toEqual(['tableRenamed:programme>project', 'tableRenamed:project>programme']);

    const all = await op('migrationRollback', { all: true });
    expect(all.done.length).toBe(before.filter((m: { status: string }) => m.status === 'applied').length - 1);
    expect(events.at(-1)).toBe('columnRenamed:task.details>notes');
    expect((await op('tableList', {})).data.list).toEqual([]);
    expect(await sqlRows(`SELECT ${q('id')} FROM ${q('_evolutions')}`)).toEqual([]);

    const again = await op('migrationApply', { all: true });
    expect(again.done.length).toBe(all.done.length + 1);
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn).sort()).toEqual(['tag', 'task']);
    const evo = await sqlRows(`SELECT ${q('id')} FROM ${q('_evolutions')}`);
    expect(evo.length).toBe(again.done.length);
    const meta = await op('tableMeta', { tn: 'task' });
    expect(meta.columns.find((c: { cn: string }) => c.cn === 'points').uidt).toBe('Number');
  });

  test('only owners and creators change the schema: an editor is refused and nothing runs', async () => {
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': token }, body: { email: `editor.${engine}@example.com`, roles: 'editor', project_id: projectId } });
    const signup = await t.request('POST', '/auth/signup', {
      body: { email: `editor.${engine}@example.com`, password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] },
    });
    const editor = signup.body.token as string;
    for (const [api, args] of [
      ['tableCreate', { tn: 'sneaky' }],
      ['columnAdd', { tn: 'task', column: { cn: 'sneaky', uidt: 'Number' } }],
      ['columnReorder', { tn: 'task', order: ['id'] }],
      ['migrationList', {}],
      ['migrationRollback', { all: true }],
    ] as const) {
      const res = await dashboardOp(t, editor, api, { project_id: projectId, args, plus: true });
      expect(`${api}:${res.status}`).toBe(`${api}:403`);
    }
    expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).not.toContain('sneaky');
  });

  test("a renamed table keeps its roles' rules and Meta Management settings; a renamed column is renamed in them", async () => {
    await op('tableCreate', { tn: 'secret', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'label', uidt: 'SingleLineText' }, { cn: 'pin', uidt: 'SingleLineText' }] });
    for (const label of ['open', 'closed']) expect((await rest('POST', 'Secret', { label, pin: '1234' })).status).toBe(200);
    const rule = { read: ['id', 'label'], create: false, update: false, delete: false, where: '(label,eq,open)' };
    await op('aclSave', { tn: 'secret', role: 'viewer', rule });
    await op('disableOrEnableModel', { type: 'table', name: 'secret', role: 'viewer', enabled: true });
    await op('disableOrEnableModel', { type: 'table', name: 'secret', role: 'commenter', enabled: false });
    await op('tableRename', { tn: 'secret', newTn: 'vault' });
    await op('columnUpdate', { tn: 'vault', cn: 'label', column: { cn: 'tag' } });
    const [listed] = (await op('aclList', { tn: 'vault' })).list;
    expect(listed.rules.viewer).toMatchObject({ stored: true, read: ['id', 'tag'], where: '(tag,eq,open)' });
    const shown = (await op('modelVisibilityList', {})).list.find((o: { name: string }) => o.name === 'vault');
    expect(shown.enabled).toMatchObject({ commenter: false, viewer: true });
    // And a viewer reads what the rule lets it read, as before the renames.
    const email = `viewer.${engine}@example.com`;
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': token }, body: { email, roles: 'viewer', project_id: projectId } });
    const viewer = (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] } })).body.token;
    const read = await t.request('GET', `/nc/${projectId}/api/v1/Vault`, { headers: { 'xc-auth': viewer } });
    expect(read.body).toEqual([{ id: 1, tag: 'open' }]);
  });

  test('defaults are checked as values of the column; a required column needs a value in every row', async () => {
    expect((await rest('POST', 'Tasks', { title: 'a row for the required column' })).status).toBe(200);
    for (const [column, says] of [
      [{ cn: 'd_num', uidt: 'Number', default: 'abc' }, `The default of column 'd_num': "abc" is not a whole number`],
      [{ cn: 'd_day', uidt: 'Date', default: 'not a date' }, `The default of column 'd_day': "not a date" is not a date`],
      [{ cn: 'd_pick', uidt: 'SingleSelect', options: ['a', 'b'], default: 'z' }, `The default of column 'd_pick': "z" is not one of 'a', 'b'`],
      [{ cn: 'd_mail', uidt: 'Email', default: 'nope' }, `The default of column 'd_mail': "nope" is not a valid email address`],
    ] as const) {
      expect((await op('columnAdd', { tn: 'task', column }, 400)).msg).toStartWith(says);
    }
    expect((await op('columnUpdate', { tn: 'task', cn: 'qty', column: { default: 'lots' } }, 400)).msg).toStartWith(`The default of column 'qty'`);
    expect((await op('tableCreate', { tn: 'bad_defaults', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'n', uidt: 'Number', default: 'x' }] }, 400)).msg).toStartWith(`The default of column 'n'`);
    const ok = await op('columnAdd', { tn: 'task', column: { cn: 'd_ok', uidt: 'SingleSelect', options: ['a', 'b'], default: 'b' } });
    expect(ok.migration.status).toBe('applied');
    // MariaDB filled such rows with '' without a word; SQLite named its rebuild copy of the table.
    const required = await op('columnAdd', { tn: 'task', column: { cn: 'must', uidt: 'SingleLineText', nullable: false } }, 400);
    expect(required.msg).toBe("Column 'must' cannot be required without a default: the rows 'Tasks' already has would hold no value");
    await op('columnAdd', { tn: 'task', column: { cn: 'sparse', uidt: 'SingleLineText' } });
    const nulls = await op('columnUpdate', { tn: 'task', cn: 'sparse', column: { nullable: false, default: 'x' } }, 400);
    expect(nulls.msg).toBe("Column 'sparse' is empty in some rows: give them a value before making it required");
    expect((await op('tableMeta', { tn: 'task' })).columns.map((c: { cn: string }) => c.cn)).not.toContain('must');
  });

  test('bad input: clear {msg} with the right status', async () => {
    expect((await op('columnAdd', { tn: 'nope', column: { cn: 'x', uidt: 'Number' } }, 404)).msg).toContain("'nope'");
    expect((await op('columnAdd', { tn: 'task', column: { cn: 'x', uidt: 'Wobbly' } }, 400)).msg).toContain('uidt');
    expect((await op('columnAdd', { tn: 'task', column: { cn: 'title', uidt: 'Number' } }, 409)).msg).toContain('already exists');
    expect((await op('columnUpdate', { tn: 'task', cn: 'nope', column: { uidt: 'Number' } }, 404)).msg).toContain("'nope'");
    expect((await op('relationDelete', { type: 'hm', parentTn: 'tag', childTn: 'task' }, 404)).msg).toContain('No has-many');
    expect((await op('migrationApply', { id: 'mg_nothing' }, 404)).msg).toContain('not found');
  });
});
