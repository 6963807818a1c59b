/**
 * The grid store outside React: rows fetched page by page only where asked, the count fetched apart
 * and 'unknown' when it times out, filters and sorts sent as where/sort and kept per table, edits
 * saved through PUT with composite keys joined by '___'; a new sort keeps the count, a new filter or
 * search asks it again.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const hadWindow = 'window' in globalThis;
const hadStorage = 'localStorage' in globalThis;

const store = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
});

interface Call { method: string; url: URL; body: unknown }
let calls: Call[] = [];
let countAnswer: () => Response = () => Response.json({ count: 1_000_000 });
/** When set, list answers wait for it (a read still on its way). */
let listGate: Promise<void> | null = null;
/** Rows added before the others since the last read (by someone else): every row answers that many places lower. */
let shift = 0;
globalThis.fetch = (async (input: string, init?: RequestInit) => {
  const url = new URL(input, 'http://tablo.test');
  const method = init?.method ?? 'GET';
  calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  if (listGate && method === 'GET' && !url.pathname.endsWith('/count')) await listGate;
  if (url.searchParams.get('where')?.includes('Nme')) return Response.json({ msg: "Column 'Nme' not found" }, { status: 400 });
  if (url.pathname.endsWith('/count')) return countAnswer();
  if (method === 'PUT') return Response.json({ ...(JSON.parse(String(init!.body)) as object), id1: 1, id2: 'b' });
  const offset = Number(url.searchParams.get('offset'));
  const limit = Number(url.searchParams.get('limit'));
  return Response.json(Array.from({ length: limit }, (_, i) => ({ id1: offset + i - shift, id2: 'b', Name: `row ${offset + i - shift}` })));
}) as unknown as typeof fetch;

const { GridStore, PAGE } = await import('../../web/src/features/grid/grid-store');
const meta = {
  tn: 'big', _tn: 'Big', type: 'table' as const, pks: ['id1', 'id2'], displayColumn: 'Name', readOnly: null,
  columns: [], relations: [],
};
const settle = () => new Promise((r) => setTimeout(r, 5));
afterAll(() => {
  globalThis.fetch = realFetch;
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
  if (!hadStorage) delete (globalThis as { localStorage?: unknown }).localStorage;
});

const lists = () => calls.filter((c) => c.method === 'GET' && !c.url.pathname.endsWith('/count'));

beforeEach(() => {
  calls = [];
  store.clear();
  countAnswer = () => Response.json({ count: 1_000_000 });
  listGate = null;
  shift = 0;
});

test('the first page comes at once, the count apart; scrolling fetches only the pages in view', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  expect(lists().map((c) => [c.url.searchParams.get('limit'), c.url.searchParams.get('offset')])).toEqual([[String(PAGE), '0']]);
  expect(g.count.value).toBe(1_000_000);
  expect(g.rows.value.get(0)?.Name).toBe('row 0');
  calls = [];
  await g.ensure(500_000, 500_030);
  await g.ensure(500_010, 500_020); // already loaded: no second call
  expect(lists().map((c) => c.url.searchParams.get('offset'))).toEqual([String(Math.floor(500_000 / PAGE) * PAGE)]);
  expect(g.rows.value.get(500_000)?.Name).toBe('row 500000');
  expect(g.rows.value.size).toBe(PAGE * 2);
});

test('a count that times out (504) shows as unknown and the grid still lays out the rows it knows', async () => {
  countAnswer = () => Response.json({ msg: 'Count timed out' }, { status: 504 });
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  expect(g.count.value).toBe('unknown');
  expect(g.size()).toBe(PAGE * 2); // a full first page means there are more
});

test('where and sort reach the list and the count, and are kept per table across a new store', async () => {
  const g = new GridStore('p1', meta);
  g.setQuery('(Name,like,%row%)', '-id1');
  await settle();
  expect(lists()[0]!.url.searchParams.get('where')).toBe('(Name,like,%row%)');
  expect(lists()[0]!.url.searchParams.get('sort')).toBe('-id1');
  expect(calls.find((c) => c.url.pathname.endsWith('/count'))!.url.searchParams.get('where')).toBe('(Name,like,%row%)');
  g.toggleField('Name');
  g.setWidth('id1', 20);
  const again = new GridStore('p1', meta);
  expect([again.where.value, again.sort.value, again.hidden.value, again.widths.value.id1]).toEqual(['(Name,like,%row%)', '-id1', ['Name'], 60]);
  expect(new GridStore('p2', meta).where.value).toBe('');
});

test('a where the server cannot read shows its error and is not saved (the view keeps its last working one); one that reads is saved', async () => {
  const saved: { where: string; sort: string }[] = [];
  const g = new GridStore('p1', meta, { load: () => ({ where: '(Name,like,%row%)', sort: '', hidden: [], widths: {}, builder: { filters: [], sorts: [], search: '', raw: null } }), save: (s) => void saved.push({ where: s.where, sort: s.sort }) });
  g.setQuery('(Nme,eq,x)', '');
  await settle();
  expect(g.error.value).toBe("Column 'Nme' not found");
  // Saving it was refused by the server too, in a second toast with the raw message.
  expect(saved).toEqual([]);
  g.setQuery('(Nme,eq,x)', '-id1');
  await settle();
  expect(saved).toEqual([{ where: '(Name,like,%row%)', sort: '-id1' }]);
  g.setQuery('(Name,eq,row 1)', '-id1');
  await settle();
  expect(g.error.value).toBeNull();
  expect(saved.at(-1)).toEqual({ where: '(Name,eq,row 1)', sort: '-id1' });
});

test('an edit is saved with PUT under the composite key and the row is replaced by the answer', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  await g.save(1, 'Name', 'changed');
  const put = calls.find((c) => c.method === 'PUT')!;
  expect(put.url.pathname).toBe('/nc/p1/api/v1/Big/' + encodeURIComponent('1___b'));
  expect(put.body).toEqual({ Name: 'changed' });
  expect(g.rows.value.get(1)?.Name).toBe('changed');
});

test('an update from another user that arrives while the pages are read again is not undone by the older answer', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  let open!: () => void;
  listGate = new Promise((r) => (open = r));
  const refreshing = g.refresh();
  await settle();
  // The read is on its way (it will answer "row 3"); another user's update arrives meanwhile.
  expect(g.mergeRows([{ id1: 3, id2: 'b', Name: 'Olinda' }])).toBe(1);
  expect(g.rows.value.get(3)?.Name).toBe('Olinda');
  open();
  await refreshing;
  expect(g.rows.value.get(3)?.Name).toBe('Olinda');
  expect(g.rows.value.get(4)?.Name).toBe('row 4');
  // Once no read is under way, later reads answer the server's values again.
  listGate = null;
  await g.refresh();
  expect(g.rows.value.get(3)?.Name).toBe('row 3');
});

test('a page scrolled into view while an update arrives shows the update', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  let open!: () => void;
  listGate = new Promise((r) => (open = r));
  const loading = g.ensure(PAGE, PAGE + 10);
  await settle();
  g.mergeRows([{ id1: PAGE + 2, id2: 'b', Name: 'Recife' }]);
  open();
  await loading;
  expect(g.rows.value.get(PAGE + 2)?.Name).toBe('Recife');
  expect(g.rows.value.get(PAGE + 3)?.Name).toBe(`row ${PAGE + 3}`);
});

test('a page scrolled into view while the pages are read again stays loaded', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  let open!: () => void;
  listGate = new Promise((r) => (open = r));
  const refreshing = g.refresh();
  await settle();
  // The refresh of page 0 is on its way; the next page is scrolled into view and read meanwhile.
  listGate = null;
  await g.ensure(PAGE, PAGE + 10);
  expect(g.rows.value.get(PAGE + 2)?.Name).toBe(`row ${PAGE + 2}`);
  open();
  await refreshing;
  expect(g.rows.value.get(PAGE + 2)?.Name).toBe(`row ${PAGE + 2}`);
  expect(g.rows.value.get(2)?.Name).toBe('row 2');
});

test('an export asks for the rows and columns the grid shows: filters with the search, sort, shown fields', () => {
  const g = new GridStore('p-export', meta);
  expect(g.exportQuery(['id1', 'id2', 'Name'])).toEqual({ where: undefined, sort: undefined, fields: undefined });
  g.setQuery('(id1,gt,5)', '-id1', 'smith');
  const q = g.exportQuery(['id1', 'id2', 'Name']);
  expect(q.where).toContain('(id1,gt,5)');
  expect(q.where).toContain('smith');
  expect(q.where).toBe(g.effectiveWhere());
  expect(q.sort).toBe('-id1');
  g.toggleField('Name');
  expect(g.exportQuery(['id2', 'id1']).fields).toBe('id2,id1');
});

test('another user\'s change reads again only the pages in view, not every page scrolled past; those are read when they come back', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  // Scrolled down through 50 pages, now showing rows 4,900 to 4,930.
  for (let page = 0; page < 50; page++) await g.show(page * PAGE, page * PAGE + 30);
  expect(g.rows.value.size).toBe(50 * PAGE);
  calls = [];
  await g.refresh();
  expect(lists().map((c) => c.url.searchParams.get('offset'))).toEqual([String(49 * PAGE)]);
  expect(g.rows.value.get(49 * PAGE)?.Name).toBe(`row ${49 * PAGE}`);
  // Rows scrolled past are let go (an added row may have shifted them) and read again on the way back.
  expect(g.rows.value.has(10 * PAGE)).toBe(false);
  calls = [];
  await g.show(10 * PAGE, 10 * PAGE + 30);
  expect(lists().map((c) => c.url.searchParams.get('offset'))).toEqual([String(10 * PAGE)]);
});

test('ticked rows and the active cell keep their pages through a refresh', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  for (let page = 0; page < 5; page++) await g.show(page * PAGE, page * PAGE + 30);
  g.toggleSelected(PAGE + 5);
  g.active.value = { row: 2 * PAGE + 1, col: 0 };
  await g.refresh();
  expect(g.rows.value.has(PAGE + 5)).toBe(true);
  expect(g.rows.value.has(2 * PAGE + 1)).toBe(true);
  expect(g.rows.value.has(3 * PAGE)).toBe(false);
});

test('changes arriving faster than a refresh answers still bring the grid up to date (one more read after the one under way)', async () => {
  countAnswer = () => Response.json({ count: 1_000_000 + calls.filter((c) => c.url.pathname.endsWith('/count')).length });
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  calls = [];
  let open!: () => void;
  listGate = new Promise((r) => (open = r));
  const first = g.refresh();
  await settle();
  // Three more changes while the first read is on its way.
  const later = [g.refresh(), g.refresh(), g.refresh()];
  open();
  await Promise.all([first, ...later]);
  await settle();
  // The first read, then one more for all the changes that came meanwhile; its count is shown.
  expect(lists().length).toBe(2);
  expect(g.count.value).toBe(1_000_000 + calls.filter((c) => c.url.pathname.endsWith('/count')).length);
});

test('comment counts are asked for the rows in view, also after more than a thousand rows were loaded above them', async () => {
  const { idsInView, mergeCounts } = await import('../../web/src/features/grid/comment-counts');
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  for (let page = 0; page < 15; page++) await g.show(page * PAGE, page * PAGE + 30);
  const view = Array.from({ length: 30 }, (_, i) => 1_450 + i);
  const ids = idsInView(g, view);
  expect(ids[0]).toBe('1450___b');
  expect(ids).toHaveLength(30);
  // A row asked for again without an answer has no comments any more; others stay.
  expect(mergeCounts({ '1___b': 2, '1450___b': 1 }, ids, { '1451___b': 3 })).toEqual({ '1___b': 2, '1451___b': 3 });
});

test('ticked rows and the active cell stay on their rows when rows added by others move them down', async () => {
  const g = new GridStore('p1', meta);
  g.reload();
  await settle();
  await g.show(0, 20);
  g.toggleSelected(3);
  g.active.value = { row: 5, col: 1 };
  // Two rows added before them; the grid reads its rows again in place.
  shift = 2;
  await g.refresh();
  expect(g.rows.value.get(5)?.id1).toBe(3);
  expect([...g.selected.value]).toEqual([5]);
  expect(g.active.value).toEqual({ row: 7, col: 1 });
});

test('a new sort reads the rows again but keeps the count (even one still on its way); a new filter or search counts again', async () => {
  const counts = () => calls.filter((c) => c.url.pathname.endsWith('/count'));
  const g = new GridStore('p1', meta, { load: () => null, save: () => {} });
  g.reload();
  // Sorted before the first count answered: that count still lands, none is asked again.
  g.setQuery('', '-id1');
  expect(g.count.value).toBeNull();
  await settle();
  expect([counts().length, g.count.value]).toEqual([1, 1_000_000]);
  g.sortBy('Name', true);
  expect(g.count.value).toBe(1_000_000);
  g.adopt({ where: '', sort: 'Name' });
  expect(g.count.value).toBe(1_000_000);
  await settle();
  expect(counts()).toHaveLength(1);
  expect(lists().map((c) => c.url.searchParams.get('sort'))).toEqual([null, '-id1', '-Name', 'Name']);
  g.setQuery('(Name,like,%row%)', 'Name');
  expect(g.count.value).toBeNull();
  await settle();
  g.setQuery('(Name,like,%row%)', 'Name', 'row 1');
  await settle();
  expect(counts().map((c) => c.url.searchParams.get('where'))).toEqual([null, '(Name,like,%row%)', '(Name,like,%row%)~and(Name,like,%row 1%)']);
});
