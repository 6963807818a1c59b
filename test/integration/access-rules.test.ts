/**
 * Data rules per table and role (Roles Management): hidden columns dropped from every read and
 * refused in writes, row conditions (also with `$user.email`) on every read and write, per-role
 * tree visibility kept apart from data rights, and the owners' raw SQL, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { chinookTable } from '../helpers/chinook';

const auth = (token: string) => ({ 'xc-auth': token });

describeEngines(
  'data rules',
  (engine: TestEngine) => {
    const dbName = `tablo_t_acl_rules_${engine}`;
    let t: TestApp;
    let owner = '';
    let projectId = '';
    const tokens: Record<string, string> = {};
    let base = '';

    const join_ = async (email: string, roles: string) => {
      const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: projectId } });
      const token = String(invite.body.invite_url).split('/signup/')[1]!;
      return (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } })).body.token as string;
    };
    const op = (token: string, api: string, args?: unknown, headers: Record<string, string> = {}) => dashboardOp(t, token, api, { project_id: projectId, args, headers });
    const saveRule = async (tn: string, role: string, rule: unknown) => {
      const res = await op(owner, 'aclSave', { tn, role, rule });
      expect(res.status).toBe(200);
      return res;
    };
    const get = (who: string, path: string) => t.request('GET', `${base}/${path}`, { headers: auth(tokens[who]!) });
    const gql = async (who: string, query: string) => (await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: auth(tokens[who]!), body: { query } })).body;

    beforeAll(async () => {
      t = await makeTestApp();
      owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
      const cfg = await loadChinook(engine, dbName);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, 'rules.sqlite'), Bun.file(cfg.connection.filename!));
        connection = { filename: 'rules.sqlite' };
      }
      projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Rules', db: { client: engine, connection } } })).body.id;
      base = `/nc/${projectId}/api/v1`;
      tokens.owner = owner;
      tokens.editor = await join_('editor@example.com', 'editor');
      tokens.viewer = await join_('viewer@example.com', 'viewer');
      tokens.jane = await join_('jane@chinookcorp.com', 'commenter');
    });
    afterAll(async () => {
      await t.close();
      await dropDatabase(engine, dbName);
    });

    test('hidden columns are dropped from lists, nested rows, GraphQL and the grid model, and unknown to fields', async () => {
      await saveRule('Customer', 'viewer', { read: ['CustomerId', 'FirstName', 'LastName', 'Country', 'SupportRepId'], create: false, update: false, delete: false });
      await saveRule('Employee', 'viewer', { read: ['EmployeeId', 'FirstName'], create: false, update: false, delete: false });
      const list = await get('viewer', 'Customer?limit=2');
      expect(list.status).toBe(200);
      expect(Object.keys(list.body[0]).sort()).toEqual(['Country', 'CustomerId', 'FirstName', 'LastName', 'SupportRepId']);
      // A hidden column named in fields is unknown, as in filters, sorts and a shared view's fields: 400 naming it.
      for (const path of ['Customer/1?fields=FirstName,Phone', 'Customer?fields=FirstName,Phone', 'Customer/findOne?f=Phone']) {
        const res = await get('viewer', path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { msg: "Column 'Phone' not found" } });
      }
      expect((await get('viewer', 'Customer?fields=FirstName,Nope')).body).toEqual({ msg: "Column 'Nope' not found" });
      expect(Object.keys((await get('viewer', 'Customer/1?fields=FirstName')).body)).toEqual(['FirstName']);
      const view = (await op(owner, 'xcVirtualTableCreate', { tn: 'Customer', title: 'Everyone', type: 'grid' })).body.id;
      expect((await get('viewer', `Customer?view=${view}&fields=FirstName,Phone`)).body).toEqual({ msg: "Column 'Phone' not found" });
      expect(Object.keys((await get('viewer', `Customer?view=${view}&fields=FirstName&limit=1`)).body[0])).toEqual(['FirstName']);
      // The link picker's list (rows not linked yet) too.
      await saveRule('Track', 'viewer', { read: ['TrackId', 'Name'], create: false, update: false, delete: false });
      expect((await get('viewer', 'Playlist/m2mNotChildren/Track/1?fields=Name,Composer')).body).toEqual({ msg: "Column 'Composer' not found" });
      expect(Object.keys((await get('viewer', 'Playlist/m2mNotChildren/Track/1?fields=Name&limit=1')).body.list[0])).toEqual(['Name']);
      await saveRule('Track', 'viewer', null);
      expect((await get('viewer', 'Customer?sort=Phone')).status).toBe(400);
      expect((await get('viewer', 'Customer?where=(Email,like,%25)')).status).toBe(400);
      expect((await get('viewer', 'Customer/aggregate?column_name=Phone&func=count')).status).toBe(400);
      const nested = (await get('viewer', 'Customer?bt=Employee&limit=1&bfields1=EmployeeId,FirstName')).body[0];
      const parent = Object.entries(nested).find(([k]) => k.endsWith('Read'))![1] as Record<string, unknown>;
      expect(Object.keys(parent).sort()).toEqual(['EmployeeId', 'FirstName']);
      const g = await gql('viewer', '{ CustomerList(limit: 1) { CustomerId Phone } }');
      expect(g.errors[0]).toMatchObject({ message: "Not allowed to read column 'Phone' of 'Customer'", extensions: { code: 'FORBIDDEN' } });
      expect((await gql('viewer', '{ CustomerList(limit: 1) { CustomerId } }')).data.CustomerList).toEqual([{ CustomerId: 1 }]);
      // GraphQL's own fields arguments (grouping, distinct) name columns as REST's fields=: a hidden one is unknown.
      expect((await gql('viewer', '{ CustomerGroupBy(fields: "Country,Phone") }')).errors[0].message).toBe("Column 'Phone' not found");
      expect((await gql('viewer', '{ CustomerDistinct(column_name: "Country", fields: "Phone") { Country } }')).errors[0].message).toBe("Column 'Phone' not found");
      const meta = await op(tokens.viewer!, 'tableMeta', { tn: 'Customer' });
      expect(meta.body.columns.map((c: any) => c._cn).sort()).toEqual(['Country', 'CustomerId', 'FirstName', 'LastName', 'SupportRepId']);
      expect(meta.body.readOnly).toContain('Not allowed');
      // The owner still reads everything; the stored rule is listed, other roles show their defaults.
      expect(Object.keys((await get('owner', 'Customer/1')).body)).toContain('Phone');
      const acl = await op(owner, 'aclList', { tn: 'Customer' });
      expect(acl.body.list[0].rules.viewer).toMatchObject({ stored: true, update: false });
      expect(acl.body.list[0].rules.editor).toMatchObject({ stored: false, read: true, create: true, update: true, delete: true });
      expect(acl.body.list[0].rules.guest).toMatchObject({ stored: false, read: false });
    });

    test("the grid's read-only reason: a viewer's role reads only, a commenter's reads and comments", async () => {
      expect((await op(tokens.viewer!, 'tableMeta', { tn: 'Album' })).body.readOnly).toBe("Not allowed to update rows of 'Album' (your role reads only)");
      expect((await op(tokens.jane!, 'tableMeta', { tn: 'Album' })).body.readOnly).toBe("Not allowed to update rows of 'Album' (your role may read and comment)");
      expect((await op(tokens.editor!, 'tableMeta', { tn: 'Album' })).body.readOnly).toBeNull();
    });

    test('a relation linked by a hidden column is not shown: its nested rows, the grid model and GraphQL would reveal the column', async () => {
      await saveRule('Customer', 'viewer', { read: ['CustomerId', 'FirstName', 'LastName'], create: false, update: false, delete: false });
      try {
        const bt = await get('viewer', 'Customer/1?bt=Employee');
        expect(bt.status).toBe(400);
        expect(bt.body.msg).toBe("'Customer' has no belongs-to relation 'Employee'");
        // The key is readable: the has-many relation by it stays.
        expect((await get('viewer', 'Customer/1?hm=Invoice&hlimit1=1')).status).toBe(200);
        const meta = await op(tokens.viewer!, 'tableMeta', { tn: 'Customer' });
        expect(meta.body.relations.map((r: any) => `${r.type} ${r.alias}`)).toEqual(['hm Invoice']);
        const g = await gql('viewer', '{ CustomerList(limit: 1) { CustomerId EmployeeRead { LastName } } }');
        expect(g.data?.CustomerList ?? null).toBeNull();
        expect(g.errors[0]).toMatchObject({ message: "Not allowed to read column 'SupportRepId' of 'Customer'", extensions: { code: 'FORBIDDEN' } });
        await saveRule('Customer', 'viewer', { read: ['FirstName', 'LastName', 'SupportRepId'], create: false, update: false, delete: false });
        expect((await get('viewer', 'Customer/1?hm=Invoice')).status).toBe(400);
        expect((await get('viewer', 'Customer/1?bt=Employee')).status).toBe(200);
      } finally {
        await saveRule('Customer', 'viewer', null);
      }
    });

    test('a relation to a table the role may not read is left out of the grid model, so the grid reads its rows', async () => {
      await saveRule('Invoice', 'viewer', { read: false, create: false, update: false, delete: false });
      try {
        const meta = await op(tokens.viewer!, 'tableMeta', { tn: 'Customer' });
        expect(meta.status).toBe(200);
        const relations = meta.body.relations.map((r: any) => `${r.type} ${r.alias}`);
        expect(relations).toEqual(['bt Employee']);
        // What the grid asks with the relations it is given is answered.
        const bt = relations.map((r: string) => r.split(' ')[1]).join(',');
        expect((await get('viewer', `Customer?limit=2&bt=${bt}`)).status).toBe(200);
        expect((await get('viewer', 'Customer?limit=2&hm=Invoice')).status).toBe(403);
        // The owner keeps every relation.
        expect((await op(owner, 'tableMeta', { tn: 'Customer' })).body.relations.map((r: any) => r.alias)).toEqual(['Employee', 'Invoice']);
      } finally {
        await saveRule('Invoice', 'viewer', null);
      }
    });

    test('a hidden display column gives way to a readable one: the grid searches and names linked rows by it', async () => {
      await saveRule('Customer', 'viewer', { read: ['CustomerId', 'LastName', 'City'], create: false, update: false, delete: false });
      try {
        expect((await op(owner, 'tableMeta', { tn: 'Customer' })).body.displayColumn).toBe('FirstName');
        const meta = await op(tokens.viewer!, 'tableMeta', { tn: 'Customer' });
        expect(meta.body.displayColumn).toBe('LastName');
        // The grid's search is a like on the display column.
        const found = await get('viewer', `Customer?where=${encodeURIComponent(`(${meta.body.displayColumn},like,%Gonç%)`)}`);
        expect(found.status).toBe(200);
        expect(found.body.map((r: any) => r.LastName)).toEqual(['Gonçalves']);
        const invoice = await op(tokens.viewer!, 'tableMeta', { tn: 'Invoice' });
        expect(invoice.body.relations.find((r: any) => r.alias === 'Customer').targetDisplay).toBe('LastName');
        const nested = (await get('viewer', 'Invoice/1?bt=Customer')).body;
        const parent = Object.entries(nested).find(([k]) => k.endsWith('Read'))![1] as Record<string, unknown>;
        expect(parent).toEqual({ CustomerId: 2, LastName: 'Köhler' });
      } finally {
        await saveRule('Customer', 'viewer', null);
      }
    });

    test('writes naming a column the role may not write answer 403 naming it, in REST and GraphQL', async () => {
      await saveRule('Customer', 'editor', { read: true, create: false, update: ['FirstName', 'Company'], delete: false });
      const bad = await t.request('PUT', `${base}/Customer/1`, { headers: auth(tokens.editor!), body: { Email: 'x@example.com' } });
      expect(bad.status).toBe(403);
      expect(bad.body).toEqual({ msg: "Not allowed to update column 'Email' of 'Customer'" });
      const ok = await t.request('PUT', `${base}/Customer/1`, { headers: auth(tokens.editor!), body: { Company: 'Tablo' } });
      expect(ok.body).toMatchObject({ CustomerId: 1, Company: 'Tablo' });
      expect((await t.request('POST', `${base}/Customer`, { headers: auth(tokens.editor!), body: { CustomerId: 990, FirstName: 'A', LastName: 'B', Email: 'a@b.c' } })).status).toBe(403);
      expect((await t.request('DELETE', `${base}/Customer/1`, { headers: auth(tokens.editor!) })).status).toBe(403);
      const g = await gql('editor', 'mutation { CustomerUpdate(id: "1", data: { Email: "x@example.com" }) { CustomerId } }');
      expect(g.errors[0]).toMatchObject({ message: "Not allowed to update column 'Email' of 'Customer'", extensions: { code: 'FORBIDDEN' } });
      expect((await get('owner', 'Customer/1')).body.Email).toBe('luisg@embraer.com.br');
    });

    test('a row condition filters every read and write: rows outside are 404, a write may not move a row outside (403)', async () => {
      await saveRule('Customer', 'editor', { read: true, create: true, update: true, delete: true, where: '(Country,eq,Brazil)' });
      const list = await get('editor', 'Customer?limit=100');
      expect(list.body.length).toBe(5);
      expect(new Set(list.body.map((r: any) => r.Country))).toEqual(new Set(['Brazil']));
      expect((await get('editor', 'Customer/count')).body).toEqual({ count: 5 });
      expect((await get('editor', 'Customer/groupby?fields=Country')).body).toEqual([{ Country: 'Brazil', count: 5 }]);
      expect((await get('editor', 'Customer/2')).status).toBe(404);
      expect((await get('editor', 'Customer/2/exists')).body).toBe(false);
      expect((await t.request('PUT', `${base}/Customer/2`, { headers: auth(tokens.editor!), body: { Company: 'x' } })).status).toBe(404);
      expect((await t.request('DELETE', `${base}/Customer/2`, { headers: auth(tokens.editor!) })).status).toBe(404);
      const moved = await t.request('PUT', `${base}/Customer/1`, { headers: auth(tokens.editor!), body: { Country: 'France' } });
      expect(moved.status).toBe(403);
      expect((await get('owner', 'Customer/1')).body.Country).toBe('Brazil');
      const outside = await t.request('POST', `${base}/Customer`, { headers: auth(tokens.editor!), body: { CustomerId: 990, FirstName: 'A', LastName: 'B', Email: 'a@b.c', Country: 'Chile' } });
      expect(outside.status).toBe(403);
      expect((await get('owner', 'Customer/990')).status).toBe(404);
      const inside = await t.request('POST', `${base}/Customer`, { headers: auth(tokens.editor!), body: { CustomerId: 991, FirstName: 'A', LastName: 'B', Email: 'a@b.c', Country: 'Brazil' } });
      expect(inside.status).toBe(200);
      expect((await t.request('DELETE', `${base}/Customer/991`, { headers: auth(tokens.editor!) })).status).toBe(200);
      const g = await gql('editor', '{ CustomerList(limit: 100) { Country } CustomerCount }');
      expect(g.data.CustomerList.length).toBe(5);
      expect(g.data.CustomerCount).toBe(5);
      const nested = (await get('editor', 'Employee/3?hm=Customer&hlimit1=100&hfields1=CustomerId,Country')).body;
      const children = Object.entries(nested).find(([k]) => k.endsWith('List'))![1] as { Country: string }[];
      expect(children.length).toBeGreaterThan(0);
      expect(children.every((c) => c.Country === 'Brazil')).toBe(true);
      await saveRule('Customer', 'editor', null);
      expect((await get('editor', 'Customer/count')).body).toEqual({ count: 59 });
    });

    test('$user.email in a row condition is the caller; a caller without one sees no row; bad conditions are refused', async () => {
      await saveRule('Employee', 'commenter', { read: true, create: false, update: false, delete: false, where: '(Email,eq,$user.email)' });
      const mine = await get('jane', 'Employee');
      expect(mine.body.map((r: any) => r.FirstName)).toEqual(['Jane']);
      const tok = await op(owner, 'xcApiTokenCreate', { description: 'c', role: 'commenter' });
      const byToken = await t.request('GET', `${base}/Employee`, { headers: { 'xc-token': tok.body.token } });
      expect(byToken.body).toEqual([]);
      const bad = await op(owner, 'aclSave', { tn: 'Employee', role: 'commenter', rule: { read: true, create: false, update: false, delete: false, where: '(Nope,eq,1)' } });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toContain("Column 'Nope' not found");
      expect((await op(owner, 'aclSave', { tn: 'Employee', role: 'owner', rule: null })).status).toBe(400);
      expect((await op(owner, 'aclSave', { tn: 'Employee', role: 'viewer', rule: { read: ['Nope'], create: false, update: false, delete: false } })).status).toBe(400);
      expect((await op(tokens.editor!, 'aclSave', { tn: 'Employee', role: 'viewer', rule: null })).status).toBe(403);
    });

    test('Meta Management hides tree objects per role, apart from data rights', async () => {
      const genre = chinookTable(engine, 'Genre');
      const names = async (token: string, headers: Record<string, string> = {}) => (await op(token, 'tableList', {}, headers)).body.data.list.map((x: any) => x.tn);
      expect(await names(tokens.viewer!)).toContain(genre);
      expect((await op(owner, 'disableOrEnableModel', { type: 'table', name: genre, role: 'viewer', enabled: false })).status).toBe(200);
      expect(await names(tokens.viewer!)).not.toContain(genre);
      expect(await names(owner, { 'xc-preview': 'viewer' })).not.toContain(genre);
      expect(await names(tokens.editor!)).toContain(genre);
      expect(await names(owner)).toContain(genre);
      expect((await get('viewer', 'Genre?limit=1')).status).toBe(200);
      const vis = await op(owner, 'modelVisibilityList');
      expect(vis.body.list.find((o: any) => o.name === genre).enabled).toEqual({ editor: true, commenter: true, viewer: false, guest: true });
      expect((await op(tokens.editor!, 'disableOrEnableModel', { type: 'table', name: genre, role: 'viewer', enabled: true })).status).toBe(403);
      expect((await op(owner, 'disableOrEnableModel', { type: 'table', name: 'nope', role: 'viewer', enabled: true })).status).toBe(404);
      await op(owner, 'disableOrEnableModel', { type: 'table', name: genre, role: 'viewer', enabled: true });
      expect(await names(tokens.viewer!)).toContain(genre);
    });

    test('raw SQL answers rows or the rows affected, for owners only', async () => {
      const genre = chinookTable(engine, 'Genre');
      const name = engine === 'pg' ? 'name' : 'Name';
      const sel = await op(owner, 'rawSql', { sql: `SELECT ${name} AS n FROM ${genre} WHERE ${name} = 'Jazz'` });
      expect(sel.body).toMatchObject({ rows: [{ n: 'Jazz' }], affected: 0 });
      const upd = await op(owner, 'rawSql', { sql: `UPDATE ${genre} SET ${name} = ${name} WHERE ${name} = 'Jazz'` });
      expect(upd.body).toMatchObject({ rows: [], affected: 1 });
      expect((await op(owner, 'rawSql', { sql: 'SELEC nothing' })).status).toBe(400);
      expect((await op(owner, 'rawSql', { sql: '  ' })).status).toBe(400);
      expect((await op(tokens.editor!, 'rawSql', { sql: 'SELECT 1' })).body).toEqual({ msg: 'Not allowed', code: 'NOT_ALLOWED' });
    });
  },
  ['sqlite', 'pg'],
);
