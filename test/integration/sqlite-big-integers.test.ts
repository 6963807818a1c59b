/**
 * SQLite integers of 64 bits (an INTEGER key made from a timestamp, a counter past 2^53) keep every
 * digit on every road: REST lists and reads by key, GraphQL, the update of one row (the row found by
 * its exact key, not a neighbour the rounding would name) and the answers of writes.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';
import { dropDatabase, freshDatabase, runScript } from '../helpers/engines';

const NAME = 'tablo_t_bigints';
// Two keys that round to the same double (9007199254740992) when read as plain numbers.
const A = '9007199254740993';
const B = '9007199254740995';
let t: TestApp;
let token: string;
let id: string;

beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
  const cfg = await freshDatabase('sqlite', NAME);
  await runScript('sqlite', NAME, `CREATE TABLE ticket (id INTEGER PRIMARY KEY, title TEXT, counter INTEGER);
INSERT INTO ticket VALUES (${A}, 'first', 1152921504606846977), (${B}, 'second', 7), (12, 'small', 3);`);
  id = await projectOver(t, token, 'sqlite', 'Big integers', cfg);
});
afterAll(async () => {
  await t.close();
  await dropDatabase('sqlite', NAME);
});

const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${id}/api/v1${path}`, { headers: { 'xc-auth': token }, body });

test('REST lists and reads by key answer every digit; small values stay numbers', async () => {
  const list = await rest('GET', '/Ticket?sort=Id');
  expect(list.status).toBe(200);
  expect(list.body.map((r: { Id: unknown }) => r.Id)).toEqual([12, A, B]);
  expect(list.body[1].Counter).toBe('1152921504606846977');
  expect(list.body[0].Counter).toBe(3);
  const a = await rest('GET', `/Ticket/${A}`);
  expect(a.body).toEqual({ Id: A, Title: 'first', Counter: '1152921504606846977' });
  expect((await rest('GET', `/Ticket/${B}`)).body.Title).toBe('second');
});

test('an update finds the row by its exact key and answers it exactly', async () => {
  const r = await rest('PUT', `/Ticket/${B}`, { Title: 'second, edited' });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ Id: B, Title: 'second, edited', Counter: 7 });
  expect((await rest('GET', `/Ticket/${A}`)).body.Title).toBe('first');
  const made = await rest('POST', '/Ticket', { Id: '9007199254740999', Title: 'made' });
  expect(made.status).toBe(200);
  expect(made.body.Id).toBe('9007199254740999');
});

test('GraphQL answers the same digits', async () => {
  const r = await t.request('POST', `/nc/${id}/v1/graphql`, { headers: { 'xc-auth': token }, body: { query: '{ TicketList(sort: "Id", limit: 3) { Id Counter } }' } });
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.TicketList.map((x: { Id: unknown }) => String(x.Id))).toEqual(['12', A, B]);
  expect(String(r.body.data.TicketList[1].Counter)).toBe('1152921504606846977');
});
