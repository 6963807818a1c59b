/**
 * Undo and redo of pastes and deleted rows against a server that keeps values in its own form
 * (a decimal '2.50' is read back 2.5, a duration '1:30' as 5400 seconds) and reads a string for a
 * JSON column as JSON text: an undo finds the row as the paste left it, and a JSON string comes
 * back a string.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const hadWindow = 'window' in globalThis;
const hadStorage = 'localStorage' in globalThis;
const kept = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v), removeItem: (k: string) => void kept.delete(k) },
  // (a screen too: the paste code reaches react-aria, which looks at it)
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' }, screen: { orientation: {} } },
});

type Row = Record<string, unknown>;
/** The fake server's table: Id, Weight (decimal), Took (duration in seconds), Data (JSON). */
let rows = new Map<number, Row>();
let nextId = 10;
/** A written value as the server keeps it. */
function stored(k: string, v: unknown): unknown {
  if (v === null) return null;
  if (k === 'Weight') return Number(v);
  if (k === 'Took') return typeof v === 'string' && v.includes(':') ? Number(v.split(':')[0]) * 3600 + Number(v.split(':')[1]) * 60 : Number(v);
  if (k === 'Data') {
    if (typeof v !== 'string') throw new Error('JSON is written as its text here');
    return JSON.parse(v);
  }
  return v;
}
const write = (row: Row, values: Row) => {
  for (const [k, v] of Object.entries(values)) if (k !== 'Id') row[k] = stored(k, v);
};
globalThis.fetch = (async (input: string, init?: RequestInit) => {
  const url = new URL(input, 'http://tablo.test');
  const method = init?.method ?? 'GET';
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  const path = url.pathname.replace('/nc/p1/api/v1/Item', '');
  if (path === '/count') return Response.json({ count: rows.size });
  if (path === '/bulk' && method === 'PUT') {
    for (const b of body as Row[]) write(rows.get(Number(b.Id))!, b);
    return Response.json(body.length);
  }
  if (path === '/bulk' && method === 'POST') {
    return Response.json((body as Row[]).map((b) => {
      const id = b.Id === undefined ? nextId++ : Number(b.Id);
      const row: Row = { Id: id, Weight: null, Took: null, Data: null };
      write(row, b);
      rows.set(id, row);
      return id;
    }));
  }
  if (path === '/bulk' && method === 'DELETE') {
    for (const id of body as string[]) rows.delete(Number(id));
    return Response.json(body.length);
  }
  const one = /^\/(\d+)$/.exec(path);
  if (one && method === 'DELETE') return Response.json(rows.delete(Number(one[1])) ? 1 : 0);
  if (one && method === 'PUT') {
    write(rows.get(Number(one[1]))!, body);
    return Response.json(rows.get(Number(one[1])));
  }
  if (one) return rows.has(Number(one[1])) ? Response.json(rows.get(Number(one[1]))) : Response.json({ msg: 'not found' }, { status: 404 });
  const where = url.searchParams.get('where');
  const ids = where ? /^\(Id,in,(.+)\)$/.exec(where)![1]!.split(',').map(Number) : null;
  return Response.json([...rows.values()].filter((r) => !ids || ids.includes(r.Id as number)).map((r) => ({ ...r })));
}) as unknown as typeof fetch;

const { GridStore } = await import('../../web/src/features/grid/grid-store');
const { pasteBlock, outcomeText } = await import('../../web/src/features/grid/grid-paste');
const { undoStackOf } = await import('../../web/src/features/grid/undo-stack');
const column = (cn: string, kind: string, uidt = 'X') => ({ cn, _cn: cn, uidt, kind, dt: kind, pk: cn === 'Id', ai: cn === 'Id', nullable: cn !== 'Id', enumValues: null, hidden: false });
const columns = [column('Id', 'integer'), column('Weight', 'decimal', 'Decimal'), column('Took', 'decimal', 'Duration'), column('Data', 'json', 'JSON')];
const meta = { tn: 'item', _tn: 'Item', type: 'table' as const, pks: ['Id'], displayColumn: 'Id', readOnly: null, columns, relations: [] };
const settle = () => new Promise((r) => setTimeout(r, 5));

afterAll(() => {
  globalThis.fetch = realFetch;
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
  if (!hadStorage) delete (globalThis as { localStorage?: unknown }).localStorage;
});
beforeEach(() => {
  rows = new Map([[1, { Id: 1, Weight: 1, Took: 60, Data: '123' }]]);
  kept.clear();
});

test('without the right to add rows, a paste past the last row writes the rows it covers and adds none, saying so', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  const outcome = await pasteBlock(g, '2\t0:01\n3\t0:02\n4\t0:03', { row: 0, col: 1 }, columns, (c) => !c.pk, { may: false, settable: () => false });
  expect(outcome).toMatchObject({ updated: 1, added: 0, notAdded: 2, problems: [] });
  expect([...rows.keys()]).toEqual([1]);
  expect(rows.get(1)!.Weight).toBe(2);
  expect(outcomeText(outcome, 'Item')).toBe("Pasted into 1 row. 2 rows past the last one were not added: your role may not add rows to 'Item'");
});

test('a paste stored in the columns\' own form (2.50 -> 2.5, 1:30 -> 5400) is undone and redone', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  const outcome = await pasteBlock(g, '2.50\t1:30\t{"x": [1]}', { row: 0, col: 1 }, columns, (c) => !c.pk);
  expect(outcome.problems).toEqual([]);
  expect(rows.get(1)).toEqual({ Id: 1, Weight: 2.5, Took: 5400, Data: { x: [1] } });
  const stack = undoStackOf('p1');
  expect(await stack.undo()).toBe('Undid pasting 1×3 cells');
  // Written back as read: the JSON string '123' stays a string.
  expect(rows.get(1)).toEqual({ Id: 1, Weight: 1, Took: 60, Data: '123' });
  expect(await stack.redo()).toBe('Redid pasting 1×3 cells');
  expect(rows.get(1)).toEqual({ Id: 1, Weight: 2.5, Took: 5400, Data: { x: [1] } });
});

test('a deleted row with a JSON string comes back with the string', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  await g.remove(0);
  expect(rows.size).toBe(0);
  expect(await undoStackOf('p1').undo()).toBe('Undid deleting a row');
  expect(rows.get(1)).toEqual({ Id: 1, Weight: 1, Took: 60, Data: '123' });
});
