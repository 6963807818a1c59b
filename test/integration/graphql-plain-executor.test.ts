/**
 * The plain executor (plain-executor.ts) answers exactly as graphql-js does with the schema's own
 * resolvers: the same JSON text, key order included, for lists, reads and findOne with every column
 * type, aliases, __typename, fragments, variables and relations on one and several levels (the
 * awkward schema: composite keys, self-references, many-to-many, a view and a keyless table), on
 * SQLite, PostgreSQL and MariaDB. It reads one query per relation per level, leaves what is not
 * plain to the others, and over HTTP a caller with hidden columns gets the same answers (rows,
 * FORBIDDEN) whichever road the request takes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { execute, getOperationAST, parse, type GraphQLSchema } from 'graphql';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadAwkward, type TestEngine } from '../helpers/engines';
import { dataContext } from '../../src/api/rest/context';
import { buildGraphqlSchema } from '../../src/api/graphql/schema-builder';
import { plainQuery } from '../../src/api/graphql/plain-executor';
import type { DataContext } from '../../src/data/data-context';

let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await makeTestApp();
  owner = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

const PLAIN: [string, string, Record<string, unknown>?][] = [
  ['every column type', '{ OrderList(sort: "Id") { Id Group Title Notes Qty Big Price Ratio Paid Due CreatedAt AtTime Meta Feeling Blob Code } }'],
  ['aliases, __typename, belongs-to and many-to-many', '{ OrderList(sort: "-Id", limit: 3) { __typename t: Title CustomerGroupRead { GroupName __typename } TagMMList { Label } Id } }'],
  ['relations on three levels', '{ CustomerGroupList(sort: "GroupId") { GroupName OrderList { Title TagMMList { Label } CustomerGroupRead { GroupId } } } }'],
  [
    'fragments, variables and a self-reference on two levels',
    'query ($n: Int) { EmployeeList(limit: $n, sort: "Id") { ...E EmployeeRead { ...E EmployeeRead { Name } } EmployeeList { Id } } } fragment E on Employee { Id Name }',
    { n: 2 },
  ],
  ['reads, findOne and a composite key side by side', '{ OrderRead(id: "1") { Title TagMMList { Id } } GradeRead(id: "ann___math") { Student Score } one: OrderFindOne(where: "(Id,gt,1)", sort: "Id") { Id Title } }'],
  ['a keyless table and a view', '{ EventLogList { HappenedAt Message } PaidOrdersList(sort: "Id") { Id Title Price } }'],
  ['a filter, an offset and the same field asked twice', '{ OrderList(where: "(Qty,ge,1)", sort: "Id", offset: 1) { Id Title Id CustomerGroupRead { GroupId } CustomerGroupRead { GroupName } } }'],
];

const NOT_PLAIN: [string, string][] = [
  ['a relation with arguments', '{ OrderList { TagMMList(limit: 1) { Id } } }'],
  ['a count of children', '{ CustomerGroupList { OrderCount } }'],
  ['a directive', '{ OrderList { Id @include(if: true) } }'],
  ['introspection', '{ __schema { queryType { name } } }'],
  ['an aggregate', '{ OrderCount }'],
];

describeEngines('GraphQL plain executor', (engine: TestEngine) => {
  const dbName = `tablo_t_gql_plain_${engine}`;
  let id = '';
  let schema: GraphQLSchema;
  let dc: DataContext;
  beforeAll(async () => {
    id = await projectOver(t, owner, engine, `Plain ${engine}`, await loadAwkward(engine, dbName));
    dc = await dataContext(t.app.ctx, new Request('http://localhost/', { headers: { 'xc-auth': owner } }), id);
    schema = buildGraphqlSchema(dc.pdb.model, dc.pdb.db.dialect.engine);
  });
  afterAll(async () => dropDatabase(engine, dbName));

  /** The answer of graphql-js with the schema's resolvers, and the plain executor's (twice: the second run reuses what the first kept). */
  const both = async (query: string, variables?: Record<string, unknown>) => {
    const document = parse(query);
    const plain = plainQuery(schema, document, getOperationAST(document)!);
    expect(plain).toBeDefined();
    const reference = await execute({ schema, document, contextValue: { dc, loaders: new Map() }, variableValues: variables });
    expect(reference.errors).toBeUndefined();
    return { reference: JSON.stringify(reference), plain: [JSON.stringify(await plain!.run(dc, variables)), JSON.stringify(await plain!.run(dc, variables))] };
  };

  for (const [name, query, variables] of PLAIN) {
    test(`the same JSON as graphql-js: ${name}`, async () => {
      const { reference, plain } = await both(query, variables);
      expect(reference.length).toBeGreaterThan(40);
      expect(plain).toEqual([reference, reference]);
    });
  }

  test('values come out exact: 64-bit integers, decimals and JSON', async () => {
    const { plain } = await both('{ OrderList(sort: "Id", limit: 1) { Big Price Meta } }');
    expect(JSON.parse(plain[0]!).data.OrderList[0]).toMatchObject({ Big: '9007199254740993', Meta: { a: 1 } });
  });

  test('one query per relation per level, whichever road', async () => {
    const driver = dc.pdb.db.driver;
    const original = driver.query.bind(driver);
    let statements = 0;
    driver.query = ((c: Parameters<typeof original>[0]) => (statements++, original(c))) as typeof driver.query;
    try {
      const run = async (query: string) => {
        const document = parse(query);
        statements = 0;
        await plainQuery(schema, document, getOperationAST(document)!)!.run(dc, undefined);
        return statements;
      };
      // The page with its belongs-to and many-to-many rows (answer objects made from the driver's rows).
      expect(await run('{ OrderList { Title CustomerGroupRead { GroupName } TagMMList { Label } } }')).toBe(3);
      // Groups, their orders, the orders' tags and groups (level by level).
      expect(await run('{ CustomerGroupList { OrderList { TagMMList { Label } CustomerGroupRead { GroupId } } } }')).toBe(4);
    } finally {
      driver.query = original;
    }
  });

  for (const [name, query] of NOT_PLAIN) {
    test(`left to the other executors: ${name}`, () => {
      const document = parse(query);
      expect(plainQuery(schema, document, getOperationAST(document)!)).toBeUndefined();
    });
  }

  describe('over HTTP, for a caller with hidden columns and rows', () => {
    let viewer = '';
    beforeAll(async () => {
      const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': owner }, body: { email: `viewer-${engine}@example.com`, roles: 'viewer', project_id: id } });
      const inviteToken = String(invite.body.invite_url).split('/signup/')[1]!;
      viewer = (await t.request('POST', '/auth/signup', { body: { email: `viewer-${engine}@example.com`, password: 'password123', token: inviteToken } })).body.token;
      const rule = { read: ['Id', 'Title', 'Group'], create: false, update: false, delete: false, where: '(Qty,ge,2)' };
      expect((await dashboardOp(t, owner, 'aclSave', { project_id: id, args: { tn: 'order', role: 'viewer', rule } })).status).toBe(200);
    });

    /** The same POST through the short road (no Accept header) and through graphql-yoga (an Accept header only yoga takes). */
    const send = async (token: string, query: string) => {
      const post = async (accept?: string) => {
        const res = await t.app.handle(
          new Request(`http://localhost/nc/${id}/v1/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'xc-auth': token, ...(accept ? { accept } : {}) },
            body: JSON.stringify({ query }),
          }),
        );
        return { status: res.status, body: await res.json() };
      };
      return { fast: await post(), yoga: await post('application/json, */*') };
    };

    test('readable columns: the rows the rule allows, the same on both roads', async () => {
      const { fast, yoga } = await send(viewer, '{ OrderList(sort: "Id") { Id Title CustomerGroupRead { GroupName } } }');
      expect(fast).toEqual(yoga);
      const rows = fast.body.data.OrderList;
      expect(rows.length).toBeGreaterThan(0);
      const all = (await send(owner, '{ OrderList(sort: "Id") { Id Qty } }')).fast.body.data.OrderList;
      expect(rows.map((r: { Id: number }) => r.Id)).toEqual(all.filter((r: { Qty: number | null }) => (r.Qty ?? 0) >= 2).map((r: { Id: number }) => r.Id));
    });

    test('a hidden column: FORBIDDEN naming it, the same on both roads', async () => {
      const { fast, yoga } = await send(viewer, '{ OrderList { Id Notes } }');
      expect(fast).toEqual(yoga);
      expect(fast.body.errors[0]).toMatchObject({ message: "Not allowed to read column 'Notes' of 'Order'", extensions: { code: 'FORBIDDEN' } });
    });

    test('a query asked again is read under the rules of the moment: a column hidden since is refused', async () => {
      const query = '{ OrderList(sort: "Id", limit: 5) { Id Title } }';
      const first = await send(viewer, query);
      expect(first.fast.body.data.OrderList.length).toBeGreaterThan(0);
      expect((await send(viewer, query)).fast).toEqual(first.fast);
      const hideTitle = { read: ['Id', 'Group'], create: false, update: false, delete: false, where: '(Qty,ge,2)' };
      expect((await dashboardOp(t, owner, 'aclSave', { project_id: id, args: { tn: 'order', role: 'viewer', rule: hideTitle } })).status).toBe(200);
      const after = await send(viewer, query);
      expect(after.fast).toEqual(after.yoga);
      expect(after.fast.body.errors[0]).toMatchObject({ message: "Not allowed to read column 'Title' of 'Order'", extensions: { code: 'FORBIDDEN' } });
      const rule = { read: ['Id', 'Title', 'Group'], create: false, update: false, delete: false, where: '(Qty,ge,2)' };
      expect((await dashboardOp(t, owner, 'aclSave', { project_id: id, args: { tn: 'order', role: 'viewer', rule } })).status).toBe(200);
      expect((await send(viewer, query)).fast).toEqual(first.fast);
    });
  });
});
