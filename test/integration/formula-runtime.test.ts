/**
 * Formulas whose value cannot be computed for some rows: those rows read NULL (or the value SQLite
 * and MariaDB give) on every engine, and the other rows their value. PostgreSQL raised instead
 * ('integer out of range', 'negative substring length', 'value overflows numeric format', 'invalid
 * input syntax for type timestamp', 'interval out of range', 'operator does not exist', 'function
 * mod(double precision, numeric) does not exist'), and one raising row failed every read of the
 * table: REST lists, GraphQL. MariaDB raised on POWER ('DOUBLE value is out of range').
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

const DDL: Record<TestEngine, string> = {
  sqlite: 'CREATE TABLE gadget (id integer PRIMARY KEY, name varchar(50), n integer, f double precision, txt varchar(50), ts datetime);',
  pg: 'CREATE TABLE gadget (id integer PRIMARY KEY, name varchar(50), n integer, f double precision, txt varchar(50), ts timestamp);',
  mysql: 'CREATE TABLE gadget (id integer PRIMARY KEY, name varchar(50), n integer, f double, txt varchar(50), ts datetime);',
  mssql: 'CREATE TABLE gadget (id integer PRIMARY KEY, name nvarchar(50), n integer, f float, txt nvarchar(50), ts datetime2);',
};
// Row 1 is good for every formula below; row 2 is bad for most of them.
const ROWS = `INSERT INTO gadget (id, name, n, f, txt, ts) VALUES
  (1, 'Alpha', 5, 2.5, '2021-03-04', '2020-01-15 10:00:00'),
  (2, 'Beta', 2000000000, -8, '--', '9999-12-31 23:59:59');`;

/** Name, formula, value in row 1, value in row 2. */
const CASES: [string, string, unknown, unknown][] = [
  // A length past int: PostgreSQL 'integer out of range'; SQLite and MariaDB take the whole text.
  ['MidHuge', 'MID({Name}, 1, 1e20)', 'Alpha', 'Beta'],
  ['LeftHuge', 'LEFT({Name}, {N} * 1e10)', 'Alpha', 'Beta'],
  // A negative length: PostgreSQL 'negative substring length not allowed'; it counts as 0.
  ['MidNegative', 'MID({Name}, 2, 7 - {N})', 'lp', ''],
  // int * int: PostgreSQL 'integer out of range'.
  ['Product', '{N} * {N}', 25, 4000000000000000000],
  // Overflow and no real value: PostgreSQL 'value overflows numeric format' and 'a negative number
  // raised to a non-integer power', MariaDB 'DOUBLE value is out of range'; SQLite NULL.
  ['PowerHuge', 'POWER({N}, {N})', 3125, null],
  ['PowerRoot', 'POWER({F}, 0.5)', 1.5811388300841898, null],
  // Text that holds no date: PostgreSQL 'invalid input syntax for type timestamp'.
  ['DiffText', "DATETIME_DIFF({Txt}, '2021-03-01', 'days')", 3, null],
  ['AddText', "DATETIME_DIFF(DATEADD({Txt}, 1, 'days'), '2021-03-01', 'days')", 4, null],
  // Past year 9999: PostgreSQL 'interval out of range'.
  ['AddHuge', "DATEADD({Ts}, {N}, 'years')", '2025-01-15 10:00:00', null],
  // A text column compared with a date: PostgreSQL 'operator does not exist: timestamp < character varying'.
  ['CompareText', "IF({Ts} < {Txt}, 'before', 'not')", 'before', 'not'],
  // MOD of a float column: PostgreSQL 'function mod(double precision, numeric) does not exist'.
  ['ModFloat', 'MOD({F} * 2, 3)', 2, -1],
];

describeEngines('formulas that cannot be computed for some rows read NULL there', (engine) => {
  const dbName = `tablo_t_formula_runtime_${engine}`;
  let id = '';
  const op = (api: string, args: unknown) => dashboardOp(t, token, api, { project_id: id, args });

  beforeAll(async () => {
    const cfg = await freshDatabase(engine, dbName);
    await runScript(engine, dbName, `${DDL[engine]}\n${ROWS}`);
    id = await projectOver(t, token, engine, `Formula runtime ${engine}`, cfg);
    for (const [name, formula] of CASES) {
      const res = await op('virtualColumnCreate', { tn: 'gadget', column: { _cn: name, uidt: 'Formula', formula } });
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.text}`);
    }
  });
  afterAll(async () => {
    await dropDatabase(engine, dbName);
  });

  const expected = CASES.map(([name, , one, two]) => [name, [one, two]] as const);

  test('REST list: every row, NULL where the value cannot be computed', async () => {
    const res = await t.request('GET', `/nc/${id}/api/v1/Gadget?sort=Id&fields=Id,${CASES.map(([n]) => n).join(',')}`, { headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    for (const [name, values] of expected) expect([name, res.body.map((r: Record<string, unknown>) => r[name])]).toEqual([name, values]);
  });

  test('GraphQL list: the same values, no errors', async () => {
    const query = `{ GadgetList(sort: "Id") { Id ${CASES.map(([n]) => n).join(' ')} } }`;
    const res = await t.request('POST', `/nc/${id}/v1/graphql`, { body: { query }, headers: { 'xc-auth': token } });
    expect(res.body.errors).toBeUndefined();
    for (const [name, values] of expected) expect([name, res.body.data.GadgetList.map((r: Record<string, unknown>) => r[name])]).toEqual([name, values]);
  });

  test('a filter and a sort on such a formula read too', async () => {
    const res = await t.request('GET', `/nc/${id}/api/v1/Gadget?fields=Id&where=${encodeURIComponent('(PowerHuge,gt,0)')}&sort=-DiffText`, { headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ Id: 1 }]);
  });
});
