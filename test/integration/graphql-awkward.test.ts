/**
 * The GraphQL API over the awkward schema (names with spaces and reserved words, composite keys,
 * a table without a primary key, a SQL view, self-references, many-to-many, every common type)
 * on SQLite, PostgreSQL and MariaDB, through graphql-request: the schema follows the model's
 * rules, values are exact (BIGINT beyond 2^53, decimals, JSON) and rows equal REST's.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { GraphQLClient, gql } from 'graphql-request';
import { buildClientSchema, getIntrospectionQuery, validateSchema, type GraphQLObjectType, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadAwkward, type TestEngine } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

const rest = async (path: string) => (await t.request('GET', path, { headers: { 'xc-auth': token } })).body;
const fieldsOf = (schema: GraphQLSchema, type: string) => (schema.getType(type) as GraphQLObjectType).getFields();

describeEngines('GraphQL over the awkward schema', (engine: TestEngine) => {
  const dbName = `tablo_t_graphql_awkward_${engine}`;
  let id = '';
  let client: GraphQLClient;
  let schema: GraphQLSchema;
  beforeAll(async () => {
    const cfg = await loadAwkward(engine, dbName);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, 'gql-awkward.sqlite'), Bun.file(cfg.connection.filename!));
      connection = { filename: 'gql-awkward.sqlite' };
    }
    id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `GraphQL awkward ${engine}`, projectType: 'graphql', db: { client: engine, connection } } })).body.id;
    client = new GraphQLClient(`http://localhost/nc/${id}/v1/graphql`, {
      headers: { 'xc-auth': token },
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => t.app.handle(new Request(input as string, init))) as typeof fetch,
    });
    schema = buildClientSchema(await client.request<IntrospectionQuery>(getIntrospectionQuery()));
  });
  afterAll(async () => dropDatabase(engine, dbName));

  test('the schema is valid and follows the model: views and keyless tables are read-only', () => {
    expect(validateSchema(schema)).toEqual([]);
    const query = schema.getQueryType()!.getFields();
    const mutation = schema.getMutationType()!.getFields();
    expect(Object.keys(fieldsOf(schema, 'CustomerGroup'))).toEqual(expect.arrayContaining(['GroupId', 'GroupName', 'OrderList', 'OrderCount']));
    expect(query.PaidOrdersList).toBeDefined();
    expect(mutation.PaidOrdersCreate).toBeUndefined();
    expect(schema.getType('PaidOrdersInput')).toBeUndefined();
    expect(query.EventLogList).toBeDefined();
    expect(query.EventLogRead).toBeUndefined();
    expect(mutation.EventLogCreate).toBeUndefined();
    expect(Object.keys(fieldsOf(schema, 'Employee'))).toEqual(expect.arrayContaining(['EmployeeRead', 'EmployeeList', 'EmployeeCount']));
    const order = fieldsOf(schema, 'Order');
    expect(Object.fromEntries(['Big', 'Price', 'Ratio', 'Paid', 'CreatedAt', 'Meta', 'Due', 'Qty'].map((f) => [f, String(order[f]!.type)]))).toEqual({
      Big: 'BigInt', Price: 'Decimal', Ratio: 'Float', Paid: 'Boolean', CreatedAt: 'DateTime', Meta: 'JSON', Due: 'String',
      // SQLite's INTEGER holds 64 bits; the 32-bit integers of the servers are GraphQL Ints.
      Qty: engine === 'sqlite' ? 'BigInt' : 'Int',
    });
  });

  test('every column reads exactly as REST answers it', async () => {
    const cols = 'Id Group Title Notes Qty Big Price Ratio Paid Due CreatedAt AtTime Meta Feeling Blob Code';
    const gqlRows = (await client.request<any>(`{ OrderList(sort: "Id") { ${cols} } }`)).OrderList;
    expect(gqlRows).toEqual(await rest(`/nc/${id}/api/v1/Order?sort=Id`));
    expect(gqlRows[0].Big).toBe('9007199254740993');
    expect(gqlRows[0].Meta).toEqual({ a: 1 });
    expect((await client.request<any>('{ GradeRead(id: "ann___math") { Student Course Score } }')).GradeRead).toEqual({ Student: 'ann', Course: 'math', Score: 90 });
    expect((await client.request<any>('{ PaidOrdersList(sort: "Id") { Id Title Price } }')).PaidOrdersList).toEqual(await rest(`/nc/${id}/api/v1/PaidOrders?sort=Id`));
    expect((await client.request<any>('{ EventLogCount }')).EventLogCount).toBe(2);
  });

  test('self-references and many-to-many match REST', async () => {
    const emp = (await client.request<any>('{ EmployeeList(sort: "Id") { Id EmployeeRead { Id Name } EmployeeList { Id } EmployeeCount } }')).EmployeeList;
    const restEmp = await rest(`/nc/${id}/api/v1/Employee?fields=Id&bt=Employee&sort=Id`);
    expect(emp.map((e: any) => ({ Id: e.Id, EmployeeRead: e.EmployeeRead }))).toEqual(restEmp);
    expect(emp.map((e: any) => [e.EmployeeList, e.EmployeeCount])).toEqual([[[{ Id: 2 }], 1], [[{ Id: 3 }], 1], [[], 0]]);
    const order = (await client.request<any>('{ OrderRead(id: "1") { Id TagMMList { Id Label } CustomerGroupRead { GroupName } } }')).OrderRead;
    expect({ Id: order.Id, TagMMList: order.TagMMList }).toEqual(await rest(`/nc/${id}/api/v1/Order/1?fields=Id&mm=Tag`));
    expect(order.CustomerGroupRead).toEqual({ GroupName: 'Retail' });
    const free = await client.request<any>('{ m2mNotChildren(pid: "1", assoc: "Tag", parent: "Order") m2mNotChildrenCount(pid: "1", assoc: "Tag", parent: "Order") }');
    expect(free).toEqual({ m2mNotChildren: [{ Id: 3, Label: '日本' }], m2mNotChildrenCount: 1 });
  });

  test('conditions on aliased columns and exact values written through variables', async () => {
    const groups = await client.request<any>('{ CustomerGroupList(condition: { GroupName: { like: "%handel" } }) { GroupId } }');
    expect(groups.CustomerGroupList).toEqual([{ GroupId: 2 }]);
    const created = await client.request<any>(gql`mutation ($d: OrderInput!) { OrderCreate(data: $d) { Title Qty Paid Big Price Meta } }`, {
      d: { Title: 'Fourth', Big: '123456789012345678', Price: '12345678.91', Meta: { list: [1, 2] } },
    });
    expect(created.OrderCreate).toEqual({ Title: 'Fourth', Qty: 1, Paid: false, Big: '123456789012345678', Price: 12345678.91, Meta: { list: [1, 2] } });
    const bad = await client.request(gql`mutation ($d: OrderInput!) { OrderCreate(data: $d) { Id } }`, { d: { Title: 'x', Big: '12.5' } }).catch((e) => e);
    expect(bad.response.errors[0].extensions.code).toBe('BAD_REQUEST');
    const dup = await client.request('mutation { OrderCreate(data: { Title: "Dup", Code: "A1" }) { Id } }').catch((e) => e);
    expect(dup.response.errors[0].extensions.code).toBe('CONFLICT');
  });
});
