/**
 * Undo and redo of the user's own grid edits against a small in-memory table behind fetch: a paste
 * (one batch step) whose middle row someone else changed is refused whole, nothing of it written,
 * and can be undone once that row is back; values the server answers in its own form (1.5 for a
 * pasted '1.50', 1 for true) are not taken for someone else's change; an undo refused because someone
 * renamed the column since names the column as it is called now; a row added here that someone
 * commented on since is not taken away by an undo.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const hadWindow = 'window' in globalThis;
const hadStorage = 'localStorage' in globalThis;
Object.assign(globalThis, {
  localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
});

type Row = Record<string, unknown>;
/** The table on the server, by id. */
const table = new Map<string, Row>();
/** The table's columns as the server describes them now. */
let metaNow = { tn: 't', _tn: 'T', columns: [] as { cn: string; _cn: string }[] };
/** Comments per row id. */
const comments = new Map<string, number>();
/** Writes that reached the server (method and id). */
let writes: string[] = [];
globalThis.fetch = (async (input: string, init?: RequestInit) => {
  const url = new URL(input, 'http://tablo.test');
  const method = init?.method ?? 'GET';
  const id = decodeURIComponent(url.pathname.split('/').at(-1)!);
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  if (method === 'GET') return table.has(id) ? Response.json(table.get(id)) : Response.json({ msg: 'Not found' }, { status: 404 });
  // The table's metadata as it is now (the dashboard's tableMeta call).
  if (url.pathname === '/dashboard' && body?.api === 'commentCounts') return Response.json({ counts: Object.fromEntries((body.args.pks as string[]).filter((pk) => comments.get(pk)).map((pk) => [pk, comments.get(pk)])) });
  if (url.pathname === '/dashboard') return body?.api === 'tableMeta' && body.args?.tn === 't' ? Response.json(metaNow) : Response.json({ msg: 'not in this test' }, { status: 400 });
  writes.push(`${method} ${id}`);
  if (method === 'DELETE') return Response.json(table.delete(id) ? 1 : 0);
  if (method === 'PUT' && id !== 'bulk') {
    table.set(id, { ...table.get(id), ...body });
    return Response.json(table.get(id));
  }
  return Response.json({ msg: 'not in this test' }, { status: 400 });
}) as unknown as typeof fetch;

const { UndoStack } = await import('../../web/src/features/grid/undo-stack');
const { knowTable } = await import('../../web/src/features/grid/undo-columns');
afterAll(() => {
  globalThis.fetch = realFetch;
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
  if (!hadStorage) delete (globalThis as { localStorage?: unknown }).localStorage;
});

const update = (id: string, before: Row, after: Row) => ({ kind: 'update' as const, projectId: 'p', table: 'T', id, before, after });

beforeEach(() => {
  table.clear();
  comments.clear();
  writes = [];
});

test('a pasted block whose middle row someone changed since is not undone at all, and is undone whole once that row is back', async () => {
  for (const id of ['1', '2', '3']) table.set(id, { Id: Number(id), City: `pasted ${id}` });
  const stack = new UndoStack();
  stack.record({ kind: 'batch', projectId: 'p', table: 'T', label: { kind: 'paste', rows: 3, cols: 1 }, steps: ['1', '2', '3'].map((id) => update(id, { City: `old ${id}` }, { City: `pasted ${id}` })) });
  table.set('2', { Id: 2, City: 'Olinda' });
  await expect(stack.undo()).rejects.toThrow(/changed since \(City\)/);
  // Nothing was written: rows 1 and 3 still hold the paste.
  expect(writes).toEqual([]);
  expect(table.get('3')!.City).toBe('pasted 3');
  // The other user puts the row back: the whole paste is undone.
  table.set('2', { Id: 2, City: 'pasted 2' });
  await stack.undo();
  expect(['1', '2', '3'].map((id) => table.get(id)!.City)).toEqual(['old 1', 'old 2', 'old 3']);
  await stack.redo();
  expect(['1', '2', '3'].map((id) => table.get(id)!.City)).toEqual(['pasted 1', 'pasted 2', 'pasted 3']);
});

test('a paste kept as typed and answered by the server in its own form is undone', async () => {
  // Pasted '1.50' into a Decimal and 'true' into a Checkbox; the server answers 1.5 and 1.
  table.set('7', { Id: 7, Price: 1.5, Done: 1, Qty: 3 });
  const stack = new UndoStack();
  stack.record({ kind: 'batch', projectId: 'p', table: 'T', label: { kind: 'paste', rows: 1, cols: 3 }, steps: [update('7', { Price: 2, Done: false, Qty: 1 }, { Price: '1.50', Done: true, Qty: 3 })] });
  await stack.undo();
  expect(table.get('7')).toEqual({ Id: 7, Price: 2, Done: false, Qty: 1 });
});

test('text that only looks alike is still someone else\'s change', async () => {
  table.set('8', { Id: 8, Code: '1.5' });
  const stack = new UndoStack();
  stack.record(update('8', { Code: 'a' }, { Code: '1.50' }));
  await expect(stack.undo()).rejects.toThrow(/changed since \(Code\)/);
  expect(writes).toEqual([]);
});

test('an undo refused because someone renamed the column since names the column by its name now', async () => {
  const columns = (city: string) => [{ cn: 'id', _cn: 'Id' }, { cn: 'city', _cn: city }] as never;
  knowTable('p', 'db', { tn: 't', _tn: 'T', columns: columns('City') });
  table.set('9', { Id: 9, City: 'Recife' });
  const stack = new UndoStack();
  stack.record(update('9', { City: 'Olinda' }, { City: 'Recife' }));
  // Someone renames City to Town: the row reads { Id, Town } now.
  table.set('9', { Id: 9, Town: 'Recife' });
  metaNow = { tn: 't', _tn: 'T', columns: columns('Town') };
  await expect(stack.undo()).rejects.toThrow(/changed since \(Town\)/);
  expect(writes).toEqual([]);
  // A paste taken before the rename too: its renamed column is named as it is now.
  table.set('10', { Id: 10, Town: 'Natal' });
  stack.record({ kind: 'batch', projectId: 'p', table: 'T', label: { kind: 'paste', rows: 1, cols: 1 }, steps: [update('10', { City: 'Natal' }, { City: 'Natal' })] });
  await expect(stack.undo()).rejects.toThrow(/changed since \(Town\)/);
});

test('an added row someone commented on since is not undone (their comments would lose their row); without comments it is', async () => {
  table.set('7', { Id: 7, City: 'Natal' });
  const stack = new UndoStack();
  stack.record({ kind: 'insert', projectId: 'p', table: 'T', id: '7', row: { Id: 7, City: 'Natal' } });
  comments.set('7', 1);
  await expect(stack.undo()).rejects.toThrow('The row has comments since: it was not undone');
  expect(writes).toEqual([]);
  expect(table.has('7')).toBe(true);
  comments.delete('7');
  expect(await stack.undo()).toBe('Undid adding a row');
  expect(writes).toEqual(['DELETE 7']);
});
