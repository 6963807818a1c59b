/**
 * The schema change flow of the web app outside React: a change is first asked for with
 * `preview: true` (sqlOpPlus_ variant), its statements wait in the confirm step, Submit runs it
 * and moves the schema generation, Cancel runs nothing, a failed preview is reported in the bell.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const hadWindow = 'window' in globalThis;
const hadStorage = 'localStorage' in globalThis;
const kept = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v), removeItem: (k: string) => void kept.delete(k) },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
});

interface Call { url: URL; q: string | null; body: { api: string; project_id: string; dbAlias: string; args: Record<string, unknown> } }
let calls: Call[] = [];
let answer: (c: Call) => Response = () => Response.json({});
globalThis.fetch = (async (input: string, init?: RequestInit) => {
  const url = new URL(input, 'http://tablo.test');
  const call = { url, q: url.searchParams.get('q'), body: init?.body ? JSON.parse(String(init.body)) : undefined };
  calls.push(call);
  return answer(call);
}) as unknown as typeof fetch;

const { proposeChange, proposeVirtual, confirmPending, cancelPending, confirmStatements } = await import('../../web/src/features/schema/change-flow');
const { pendingChange, schemaGeneration } = await import('../../web/src/stores/schema-ui');
const { notifications } = await import('../../web/src/stores/notifications');
const scope = { projectId: 'p1', dbAlias: 'db' };

beforeEach(() => {
  calls = [];
  notifications.value = [];
  answer = (c) => (c.body.args.preview ? Response.json({ statements: ['ALTER TABLE "orders" ADD COLUMN "note" text'] }) : Response.json({ statements: ['ALTER TABLE "orders" ADD COLUMN "note" text'], migration: { id: 7, title: 'Add column', status: 'applied' } }));
});
afterAll(() => {
  globalThis.fetch = realFetch;
  if (!hadWindow) delete (globalThis as Record<string, unknown>).window;
  if (!hadStorage) delete (globalThis as Record<string, unknown>).localStorage;
});

test('a change shows its previewed statements and runs only once confirmed', async () => {
  const gen = schemaGeneration.value;
  const done = proposeChange('Add column note', scope, 'columnAdd', { tn: 'orders', column: { cn: 'note', uidt: 'LongText' } });
  await Bun.sleep(0);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.q).toBe('sqlOpPlus_columnAdd');
  expect(calls[0]!.body).toEqual({ api: 'columnAdd', project_id: 'p1', dbAlias: 'db', args: { tn: 'orders', column: { cn: 'note', uidt: 'LongText' }, preview: true } });
  expect(pendingChange.value?.statements).toEqual(['ALTER TABLE "orders" ADD COLUMN "note" text']);
  await confirmPending();
  const result = await done;
  expect(calls).toHaveLength(2);
  expect(calls[1]!.body.args).toEqual({ tn: 'orders', column: { cn: 'note', uidt: 'LongText' } });
  expect(result?.migration?.id).toBe(7);
  expect(pendingChange.value).toBeNull();
  expect(schemaGeneration.value).toBe(gen + 1);
  expect(notifications.value[0]).toMatchObject({ title: 'Add column note', status: 'success' });
});

test('values a type change would alter are said in the confirm step, and confirming accepts the loss', async () => {
  const loss = "Column 'ratio': 12.5 would become 13";
  answer = (c) => (c.body.args.preview ? Response.json({ statements: ['ALTER TABLE "t" ALTER COLUMN "ratio" TYPE bigint'], losses: [loss] }) : Response.json({ statements: [], migration: { id: 8, title: 'Change', status: 'applied' } }));
  const done = proposeChange('Edit column ratio', scope, 'columnUpdate', { tn: 't', cn: 'ratio', column: { uidt: 'Number' } });
  await Bun.sleep(0);
  expect(pendingChange.value?.loses).toContain(loss);
  await confirmPending();
  expect((await done)?.migration?.id).toBe(8);
  expect(calls[1]!.body.args).toEqual({ tn: 't', cn: 'ratio', column: { uidt: 'Number' }, acceptLoss: true });
  // A change that alters nothing runs without accepting anything.
  answer = (c) => (c.body.args.preview ? Response.json({ statements: ['x'] }) : Response.json({ statements: ['x'] }));
  const plain = proposeChange('Edit column ratio', scope, 'columnUpdate', { tn: 't', cn: 'ratio', column: { uidt: 'Decimal' } });
  await Bun.sleep(0);
  expect(pendingChange.value?.loses).toBeUndefined();
  await confirmPending();
  await plain;
  expect(calls[3]!.body.args).toEqual({ tn: 't', cn: 'ratio', column: { uidt: 'Decimal' } });
});

test('Cancel runs nothing and answers null', async () => {
  const gen = schemaGeneration.value;
  const done = proposeChange('Delete table orders', scope, 'tableDelete', { tn: 'orders' });
  await Bun.sleep(0);
  cancelPending();
  expect(await done).toBeNull();
  expect(calls).toHaveLength(1);
  expect(schemaGeneration.value).toBe(gen);
});

test("a refused preview is reported with the server's message and nothing waits", async () => {
  answer = () => Response.json({ msg: "Table 'orders' already has a column 'note'" }, { status: 409 });
  expect(await proposeChange('Add column note', scope, 'columnAdd', { tn: 'orders', column: { cn: 'note', uidt: 'LongText' } })).toBeNull();
  expect(pendingChange.value).toBeNull();
  expect(notifications.value[0]).toMatchObject({ status: 'error', detail: "Table 'orders' already has a column 'note'" });
});

test('a failing run reports the failing step, and the schema is read again (earlier steps may have run)', async () => {
  answer = (c) => (c.body.args.preview ? Response.json({ statements: ['a', 'b'] }) : Response.json({ msg: 'Step 2 of 2 failed: no such table' }, { status: 400 }));
  const gen = schemaGeneration.value;
  const done = proposeChange('Rename table orders', scope, 'tableRename', { tn: 'orders', newTn: 'sales' });
  await Bun.sleep(0);
  await confirmPending();
  expect(await done).toBeNull();
  expect(schemaGeneration.value).toBe(gen + 1);
  expect(notifications.value[0]).toMatchObject({ status: 'error', detail: 'Step 2 of 2 failed: no such table' });
});

test('virtual columns skip the preview (no SQL) but still wait for Submit', async () => {
  answer = () => Response.json({ tn: 'orders', _tn: 'Orders', columns: [], relations: [], virtuals: [{ _cn: 'Double', uidt: 'Formula' }] });
  const done = proposeVirtual('Add column Double', scope, 'virtualColumnCreate', { tn: 'orders', column: { _cn: 'Double', uidt: 'Formula', formula: '{amount} * 2' } });
  expect(pendingChange.value?.statements).toBeNull();
  expect(calls).toHaveLength(0);
  await confirmPending();
  expect((await done)?.virtuals?.[0]?._cn).toBe('Double');
  expect(calls[0]!.q).toBe('sqlOpPlus_virtualColumnCreate');
});

test('a migration action shows the statements it was given, and a newer change drops an older one', async () => {
  const first = confirmStatements('Apply migration m1', ['CREATE TABLE a (id int)'], async () => 'ran');
  const second = confirmStatements('Roll back migration m1', ['DROP TABLE a'], async () => 'undone');
  expect(await first).toBeNull();
  expect(pendingChange.value?.statements).toEqual(['DROP TABLE a']);
  await confirmPending();
  expect(await second).toBe('undone');
});

test('removing a link names the parent and child as relationDelete expects, from either side', async () => {
  const { relationDeleteArgs } = await import('../../web/src/features/schema/relation-args');
  const meta = { tn: 'orders', _tn: 'Orders', type: 'table' as const, pks: ['id'], displayColumn: null, readOnly: null, columns: [], relations: [] };
  const rel = (type: 'hm' | 'bt' | 'mm', table: string) => ({ type, alias: table, table, columns: [], refColumns: [], targetPks: [], targetDisplay: null, targetIsJunction: false });
  expect(relationDeleteArgs({ scope, meta, relation: rel('bt', 'Customers') })).toEqual({ type: 'hm', parentTn: 'Customers', childTn: 'orders' });
  expect(relationDeleteArgs({ scope, meta, relation: rel('hm', 'Lines') })).toEqual({ type: 'hm', parentTn: 'orders', childTn: 'Lines' });
  expect(relationDeleteArgs({ scope, meta, relation: rel('mm', 'Tags') })).toEqual({ type: 'mm', parentTn: 'orders', childTn: 'Tags' });
});

test("a column menu's sort replaces the sorts, keeps the filter, tells the toolbar and is kept per table", async () => {
  answer = () => Response.json([]);
  const { GridStore } = await import('../../web/src/features/grid/grid-store');
  const meta = { tn: 'orders', _tn: 'Orders', type: 'table' as const, pks: ['id'], displayColumn: null, readOnly: null, columns: [], relations: [] };
  const store = new GridStore('p1', meta);
  store.setQuery('(Age,gt,3)', 'Name');
  const revision = store.revision.value;
  store.sortBy('Age', true);
  expect(store.sort.value).toBe('-Age');
  expect(store.where.value).toBe('(Age,gt,3)');
  expect(store.builder.value.sorts).toEqual([{ column: 'Age', desc: true }]);
  expect(store.revision.value).toBe(revision + 1);
  expect(JSON.parse(kept.get('tablo.grid.p1.orders')!).sort).toBe('-Age');
  await Bun.sleep(0);
  expect(calls.some((c) => c.url.pathname === '/nc/p1/api/v1/Orders' && c.url.searchParams.get('sort') === '-Age' && c.url.searchParams.get('where') === '(Age,gt,3)')).toBe(true);
});

test('virtual columns follow the table columns in the grid, read-only', async () => {
  const { gridColumns } = await import('../../web/src/features/grid/grid-columns');
  const cols = gridColumns({
    tn: 'orders', _tn: 'Orders', type: 'table', pks: ['id'], displayColumn: null, readOnly: null, relations: [],
    columns: [{ cn: 'id', _cn: 'Id', uidt: 'ID', kind: 'integer', dt: 'integer', pk: true, ai: true, nullable: false, enumValues: null, hidden: false }],
    virtuals: [{ _cn: 'Double', uidt: 'Formula', formula: { text: '{Id} * 2' } }],
  });
  expect(cols.map((c) => [c._cn, c.uidt, !!c.virtual])).toEqual([['Id', 'ID', false], ['Double', 'Formula', true]]);
});
