/**
 * The views store outside React: a change made on screen stays on screen when a list read sent
 * before it (or before its save reached the server) is answered after it; a reader's own change
 * stays until someone who may save changes the view.
 */
import { afterAll, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const hadWindow = 'window' in globalThis;
const hadStorage = 'localStorage' in globalThis;
Object.assign(globalThis, {
  localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' }, addEventListener: () => {} },
});

/** What the server holds: one grid view, its query_params as last saved. */
let saved: Record<string, unknown> = { sort: '' };
/** When set, list answers wait for it (a read on its way); the list is taken when the read is sent. */
let listGate: Promise<void> | null = null;
let updateGate: Promise<void> | null = null;
globalThis.fetch = (async (_input: string, init?: RequestInit) => {
  const body = JSON.parse(String(init!.body)) as { api: string; args: { query_params?: Record<string, unknown> } };
  if (body.api === 'xcVirtualTableList') {
    const snapshot = { ...saved };
    if (listGate) await listGate;
    return Response.json({ data: { list: [{ id: 'v1', title: 'Grid', type: 'grid', tn: 'note', order: 0, is_default: true, query_params: snapshot }] } });
  }
  if (body.api === 'xcVirtualTableUpdate') {
    if (updateGate) await updateGate;
    saved = { ...saved, ...body.args.query_params };
    return Response.json({ ok: true });
  }
  return Response.json({ data: { list: [] } });
}) as unknown as typeof fetch;

const { ViewsStore } = await import('../../web/src/features/views/views-store');
afterAll(() => {
  globalThis.fetch = realFetch;
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
  if (!hadStorage) delete (globalThis as { localStorage?: unknown }).localStorage;
});
const settle = () => new Promise((r) => setTimeout(r, 5));

test('a sort changed on screen while the list is read again stays, before and while it is saved', async () => {
  const s = new ViewsStore({ projectId: 'p1', dbAlias: 'db' }, 'note');
  await s.load();
  const view = s.byId('v1')!;

  // A list read is on its way (it will answer the old sort); the sort is changed meanwhile.
  let openList!: () => void;
  listGate = new Promise((r) => (openList = r));
  const reading = s.load();
  await settle();
  s.change(view, { sort: '-title' }, true);
  openList();
  await reading;
  expect(s.byId('v1')!.query_params.sort).toBe('-title');

  // Its save is on its way; a list read sent before the server has it answers the old sort.
  listGate = null;
  let openUpdate!: () => void;
  updateGate = new Promise((r) => (openUpdate = r));
  const saving = s.flush('v1');
  await settle();
  await s.load();
  expect(s.byId('v1')!.query_params.sort).toBe('-title');
  openUpdate();
  await saving;
  updateGate = null;

  // Once saved, reads answer the server's values again.
  await s.load();
  expect(s.byId('v1')!.query_params.sort).toBe('-title');
  expect(saved.sort).toBe('-title');
});

test("a reader's change stays on their screen until the view is changed by someone who may save it", async () => {
  saved = { sort: '', rowHeight: 'short' };
  const s = new ViewsStore({ projectId: 'p1', dbAlias: 'db' }, 'note');
  await s.load();
  // A viewer makes the rows tall: on their screen only, kept when the list is read again.
  s.change(s.byId('v1')!, { rowHeight: 'tall' }, false);
  await s.load();
  expect(s.byId('v1')!.query_params.rowHeight).toBe('tall');
  expect(saved.rowHeight).toBe('short');
  // The owner saves a filter: the viewer's open view shows it (it kept the viewer's older change over it).
  saved = { ...saved, where: '(title,eq,a)' };
  await s.load();
  expect(s.byId('v1')!.query_params.where).toBe('(title,eq,a)');
  expect(s.byId('v1')!.query_params.rowHeight).toBe('short');
  // A later change of the viewer's stays again.
  s.change(s.byId('v1')!, { rowHeight: 'medium' }, false);
  await s.load();
  expect(s.byId('v1')!.query_params).toEqual({ sort: '', rowHeight: 'medium', where: '(title,eq,a)' });
});

test('two people changing one view at once: a save keeps what the other saved meanwhile (other settings, other fields of a form)', async () => {
  saved = { sort: '', where: '', form: { heading: 'Suggest', fields: [{ cn: 'title' }, { cn: 'body' }] } };
  const s = new ViewsStore({ projectId: 'p1', dbAlias: 'db' }, 'note');
  await s.load();
  // Here: a sort, and the help of the title field; the screen still shows the form as it was read.
  s.change(s.byId('v1')!, { sort: '-title' }, true);
  const form = s.byId('v1')!.query_params.form!;
  s.change(s.byId('v1')!, { form: { ...form, fields: [{ cn: 'title', help: 'One line' }, { cn: 'body' }] } }, true);
  // Meanwhile someone else saves a filter, a new heading and a label of the same field.
  saved = { ...saved, where: '(title,eq,a)', form: { heading: 'Tell us', fields: [{ cn: 'title', label: 'Title please' }, { cn: 'body' }] } };
  await s.flush('v1');
  expect(saved).toEqual({ sort: '-title', where: '(title,eq,a)', form: { heading: 'Tell us', fields: [{ cn: 'title', label: 'Title please', help: 'One line' }, { cn: 'body' }] } });
  await s.load();
  expect(s.byId('v1')!.query_params).toEqual(saved as never);
});

test("a change saved while this screen's previous save is still on its way does not take that save back", async () => {
  saved = { sort: '', rowHeight: 'short', fields: [{ cn: 'title', show: true }, { cn: 'body', show: true }] };
  const s = new ViewsStore({ projectId: 'p1', dbAlias: 'db' }, 'note');
  await s.load();
  let openUpdate!: () => void;
  updateGate = new Promise((r) => (openUpdate = r));
  s.change(s.byId('v1')!, { fields: [{ cn: 'title', show: true }, { cn: 'body', show: false }] }, true);
  const first = s.flush('v1');
  await settle();
  // The body column is hidden and on its way to the server; the rows are made tall meanwhile.
  s.change(s.byId('v1')!, { rowHeight: 'tall' }, true);
  const second = s.flush('v1');
  await settle();
  openUpdate();
  updateGate = null;
  await Promise.all([first, second]);
  expect(saved).toEqual({ sort: '', rowHeight: 'tall', fields: [{ cn: 'title', show: true }, { cn: 'body', show: false }] });
});
