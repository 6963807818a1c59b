/**
 * Rights meet computed columns and filters across relations: a formula, lookup or rollup that
 * depends on a hidden column or an unreadable table is dropped from reads and unknown to fields,
 * filters and sorts; rollups count only the related rows the caller may see; conditionGraph
 * treats hidden columns and unreadable tables as unknown and applies the related row condition;
 * GraphQL refuses a selection of a hidden column (FORBIDDEN naming it). SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';

const auth = (token: string) => ({ 'xc-auth': token });
const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

describeEngines(
  'rights over computed columns and relation filters',
  (engine: TestEngine) => {
    const dbName = `tablo_t_hard_computed_${engine}`;
    let t: TestApp;
    let owner = '';
    let viewer = '';
    let projectId = '';
    let base = '';

    const op = (token: string, api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
    const create = async (tn: string, column: unknown) => {
      const res = await op(owner, 'virtualColumnCreate', { tn, column });
      if (res.status !== 200) throw new Error(`create: ${res.status} ${res.text}`);
    };
    const saveRule = async (tn: string, rule: unknown) => expect((await op(owner, 'aclSave', { tn, role: 'viewer', rule })).status).toBe(200);
    const get = (token: string, path: string) => t.request('GET', `${base}/${path}`, { headers: auth(token) });
    const gql = async (token: string, query: string) => (await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: auth(token), body: { query } })).body;

    beforeAll(async () => {
      t = await makeTestApp();
      owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
      const cfg = await loadChinook(engine, dbName);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, 'computed.sqlite'), Bun.file(cfg.connection.filename!));
        connection = { filename: 'computed.sqlite' };
      }
      projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Computed', db: { client: engine, connection } } })).body.id;
      base = `/nc/${projectId}/api/v1`;
      const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'viewer@example.com', roles: 'viewer', project_id: projectId } });
      const token = String(invite.body.invite_url).split('/signup/')[1]!;
      viewer = (await t.request('POST', '/auth/signup', { body: { email: 'viewer@example.com', password: 'password123', token } })).body.token;

      await create('Customer', { _cn: 'Mail', uidt: 'Formula', formula: '{Email}' });
      await create('Customer', { _cn: 'MailUpper', uidt: 'Formula', formula: 'UPPER({Mail})' });
      await create('Customer', { _cn: 'Name', uidt: 'Formula', formula: "CONCAT({FirstName}, ' ', {LastName})" });
      await create('Customer', { _cn: 'Invoices', uidt: 'Rollup', rollup: { relation: 'Invoice', column: 'InvoiceId', fn: 'count' } });
      await create('Customer', { _cn: 'InvoicesTwice', uidt: 'Formula', formula: '{Invoices} * 2' });
      await create('Invoice', { _cn: 'CustomerEmail', uidt: 'Lookup', lookup: { relation: 'Customer', column: 'Email' } });
      await create('Invoice', { _cn: 'CustomerCountry', uidt: 'Lookup', lookup: { relation: 'Customer', column: 'Country' } });
      await create('Invoice', { _cn: 'LineTotal', uidt: 'Rollup', rollup: { relation: 'InvoiceLine', column: 'UnitPrice', fn: 'sum' } });
      await create('Invoice', { _cn: 'Lines', uidt: 'Rollup', rollup: { relation: 'InvoiceLine', column: 'InvoiceLineId', fn: 'count' } });
      await create('Invoice', { _cn: 'Positive', uidt: 'Formula', formula: '{LineTotal} > 0' });
      await create('Artist', { _cn: 'Albums', uidt: 'Rollup', rollup: { relation: 'Album', column: 'AlbumId', fn: 'count' } });
      await create('Artist', { _cn: 'AlbumTitles', uidt: 'Lookup', lookup: { relation: 'Album', column: 'Title' } });

      await saveRule('Customer', { read: ['CustomerId', 'FirstName', 'LastName', 'Country', 'SupportRepId'], create: false, update: false, delete: false });
      await saveRule('InvoiceLine', { read: ['InvoiceLineId', 'InvoiceId', 'TrackId', 'Quantity'], create: false, update: false, delete: false });
      await saveRule('Invoice', { read: true, create: false, update: false, delete: false, where: '(Total,gt,5)' });
      await saveRule('Album', { read: false, create: false, update: false, delete: false });
    });
    afterAll(async () => {
      await t.close();
      await dropDatabase(engine, dbName);
    });

    test('computed columns over hidden columns or unreadable tables are dropped and unknown; the owner keeps them', async () => {
      const customer = (await get(viewer, 'Customer/1')).body;
      expect(Object.keys(customer).sort()).toEqual(['Country', 'CustomerId', 'FirstName', 'Invoices', 'InvoicesTwice', 'LastName', 'Name', 'SupportRepId']);
      expect(customer.Name).toBe('Luís Gonçalves');
      const invoice = (await get(viewer, 'Invoice/5')).body;
      expect(invoice).toMatchObject({ CustomerCountry: 'USA', Lines: 14 });
      for (const hidden of ['CustomerEmail', 'LineTotal', 'Positive']) expect(invoice).not.toHaveProperty(hidden);
      expect(Object.keys((await get(viewer, 'Artist/1')).body).sort()).toEqual(['ArtistId', 'Name']);
      // The grid's model lists only the computed columns the caller may read.
      const meta = async (token: string, tn: string) => (await op(token, 'tableMeta', { tn })).body.virtuals.map((v: any) => v._cn);
      expect(await meta(viewer, 'Customer')).toEqual(['Name', 'Invoices', 'InvoicesTwice']);
      expect(await meta(viewer, 'Invoice')).toEqual(['CustomerCountry', 'Lines']);
      expect(await meta(owner, 'Invoice')).toEqual(['CustomerEmail', 'CustomerCountry', 'LineTotal', 'Lines', 'Positive']);

      for (const [path, name] of [
        ['Customer?fields=CustomerId,Mail', 'Mail'],
        [`Customer?where=${enc('(Mail,like,%25)')}`, 'Mail'],
        ['Customer?sort=-MailUpper', 'MailUpper'],
        [`Customer?condition=${enc({ MailUpper: { like: '%' } })}`, 'MailUpper'],
        [`Invoice/count?where=${enc('(LineTotal,gt,1)')}`, 'LineTotal'],
        ['Invoice?sort=Positive', 'Positive'],
        ['Invoice/groupby?fields=CustomerEmail', 'CustomerEmail'],
        ['Invoice/aggregate?column_name=LineTotal&func=sum', 'LineTotal'],
        ['Artist?sort=Albums', 'Albums'],
        ['Artist?fields=AlbumTitles', 'AlbumTitles'],
      ] as const) {
        const res = await get(viewer, path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { msg: `Column '${name}' not found` } });
      }
      // Nested rows and GraphQL relation rows follow the same rule.
      const nested = (await get(viewer, 'Employee/3?hm=Customer&hlimit1=1&hfields1=CustomerId,Mail')).status;
      expect(nested).toBe(400);

      const own = (await get(owner, 'Invoice/5?fields=CustomerEmail,LineTotal,Positive')).body;
      expect(own).toEqual({ CustomerEmail: 'johngordon22@yahoo.com', LineTotal: 13.86, Positive: true });
      expect((await get(owner, 'Customer/1?fields=MailUpper')).body).toEqual({ MailUpper: 'LUISG@EMBRAER.COM.BR' });
      expect((await get(owner, 'Artist/1?fields=Albums')).body).toEqual({ Albums: 2 });
    });

    test('rollups count only the related rows the caller may see, also in filters and sorts', async () => {
      const seen = (await get(owner, `Invoice/count?where=${enc('(CustomerId,eq,1)~and(Total,gt,5)')}`)).body.count;
      expect((await get(owner, 'Customer/1?fields=Invoices')).body).toEqual({ Invoices: 7 });
      expect(seen).toBeLessThan(7);
      expect((await get(viewer, 'Customer/1?fields=Invoices')).body).toEqual({ Invoices: seen });
      // A formula over the rollup sees the same rows.
      expect((await get(viewer, 'Customer/1?fields=InvoicesTwice')).body).toEqual({ InvoicesTwice: seen * 2 });
      expect((await get(owner, 'Customer/1?fields=InvoicesTwice')).body).toEqual({ InvoicesTwice: 14 });
      const few = `Customer/count?where=${enc(`(Invoices,le,${seen})`)}`;
      expect((await get(owner, few)).body.count).toBeLessThan((await get(viewer, few)).body.count);
      const g = await gql(viewer, '{ CustomerRead(id: "1") { Invoices } }');
      expect(g).toEqual({ data: { CustomerRead: { Invoices: seen } } });
    });

    test('conditionGraph: hidden columns and unreadable tables are unknown, the related row condition applies', async () => {
      const graph = (g: unknown) => `conditionGraph=${enc(g)}`;
      const hidden = await get(viewer, `Invoice/count?${graph({ InvoiceLine: { relationType: 'hm', UnitPrice: { gt: 1 } } })}`);
      expect(hidden).toMatchObject({ status: 400, body: { msg: "Column 'UnitPrice' not found" } });
      const bt = await get(viewer, `Invoice/count?${graph({ Customer: { relationType: 'bt', Email: { like: '%' } } })}`);
      expect(bt).toMatchObject({ status: 400, body: { msg: "Column 'Email' not found" } });
      const table = await get(viewer, `Artist/count?${graph({ Album: { relationType: 'hm', Title: { like: '%' } } })}`);
      expect(table).toMatchObject({ status: 400, body: { msg: "'Artist' has no hm relation 'Album'" } });
      // Every customer has an invoice under 5; the viewer sees only invoices over 5.
      const small = graph({ Invoice: { relationType: 'hm', Total: { lt: 5 } } });
      expect((await get(owner, `Customer/count?${small}`)).body).toEqual({ count: 59 });
      expect((await get(viewer, `Customer/count?${small}`)).body).toEqual({ count: 0 });
      expect((await get(viewer, `Customer?${small}`)).body).toEqual([]);
      const g = await gql(viewer, `{ CustomerCount(conditionGraph: { Invoice: { relationType: "hm", Total: { lt: 5 } } }) }`);
      expect(g).toEqual({ data: { CustomerCount: 0 } });
      expect((await get(owner, `Artist/count?${graph({ Album: { relationType: 'hm', Title: { like: 'Let%' } } })}`)).body).toEqual({ count: 1 });
    });

    test('GraphQL refuses a selection of a hidden column, computed or stored, naming it; readable selections work', async () => {
      const phone = await gql(viewer, '{ CustomerList(limit: 1) { CustomerId Phone } }');
      expect(phone.errors[0]).toMatchObject({ message: "Not allowed to read column 'Phone' of 'Customer'", extensions: { code: 'FORBIDDEN' } });
      const mail = await gql(viewer, '{ CustomerRead(id: "1") { MailUpper } }');
      expect(mail.errors[0]).toMatchObject({ message: "Not allowed to read column 'MailUpper' of 'Customer'", extensions: { code: 'FORBIDDEN' } });
      const viaFragment = await gql(viewer, 'query { CustomerFindOne { ...C } } fragment C on Customer { FirstName Email }');
      expect(viaFragment.errors[0]).toMatchObject({ message: "Not allowed to read column 'Email' of 'Customer'", extensions: { code: 'FORBIDDEN' } });
      const nested = await gql(viewer, '{ InvoiceRead(id: "5") { InvoiceLineList(limit: 1) { InvoiceLineId UnitPrice } } }');
      expect(nested.errors[0]).toMatchObject({ message: "Not allowed to read column 'UnitPrice' of 'InvoiceLine'", extensions: { code: 'FORBIDDEN' } });
      const lookup = await gql(viewer, '{ InvoiceList(limit: 1) { CustomerEmail } }');
      expect(lookup.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      expect(lookup.errors[0].message).toContain("'CustomerEmail'");

      const ok = await gql(viewer, '{ CustomerList(limit: 1) { CustomerId Name EmployeeRead { FirstName } } InvoiceRead(id: "5") { Lines InvoiceLineList(limit: 1) { InvoiceLineId } } }');
      expect(ok.errors).toBeUndefined();
      expect(ok.data.CustomerList).toEqual([{ CustomerId: 1, Name: 'Luís Gonçalves', EmployeeRead: { FirstName: 'Jane' } }]);
      expect(ok.data.InvoiceRead).toEqual({ Lines: 14, InvoiceLineList: [{ InvoiceLineId: 22 }] });
      // The compiled fast path (no Accept header) and graphql-yoga (an Accept header it leaves to yoga) answer alike.
      for (const query of ['{ CustomerList(limit: 1) { CustomerId Phone } }', '{ CustomerList(limit: 1) { CustomerId Name Invoices } }']) {
        const send = async (headers: Record<string, string>) => {
          const res = await t.app.handle(new Request(`http://localhost/nc/${projectId}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth(viewer), ...headers }, body: JSON.stringify({ query }) }));
          return { status: res.status, body: await res.text() };
        };
        expect(await send({})).toEqual(await send({ accept: 'application/json, */*' }));
      }
      const mine = await gql(owner, '{ CustomerRead(id: "1") { Phone MailUpper } }');
      expect(mine).toEqual({ data: { CustomerRead: { Phone: '+55 (12) 3923-5555', MailUpper: 'LUISG@EMBRAER.COM.BR' } } });
    });
  },
);
