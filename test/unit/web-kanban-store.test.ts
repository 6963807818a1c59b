/**
 * The kanban and calendar stores over an in-memory row source: each lane reads its own where
 * (value, or blank / not a choice for Uncategorized) page by page; a moved card shows at once, is
 * saved with the lane's value (null for Uncategorized) and goes back when the write is refused; a
 * calendar reads only its range and a moved entry keeps its time and moves its end.
 */
import { expect, test } from 'bun:test';
import { KanbanStore, LANE_PAGE, UNCATEGORIZED } from '../../web/src/features/kanban/kanban-store';
import { CalendarStore } from '../../web/src/features/calendar/calendar-store';
import type { Row, RowQuery, RowSource } from '../../web/src/features/views/row-source';

/** Rows in memory; lanes are told apart by the value named in the where (enough for these stores). */
function memorySource(rows: Row[], opts: { refuse?: boolean } = {}) {
  const reads: RowQuery[] = [];
  const writes: { id: string; changes: Row }[] = [];
  const laneOf = (where = '') => /\(Stage,eq,([^)]+)\)/.exec(where)?.[1] ?? null;
  const pick = (where?: string) => {
    const lane = laneOf(where);
    return rows.filter((r) => (where?.includes('(Stage,blank)') ? !r.Stage : lane ? r.Stage === lane : true));
  };
  const source: RowSource = {
    idOf: (r) => String(r.Id),
    async list(q) {
      reads.push(q);
      return { list: pick(q.where).slice(q.offset, q.offset + q.limit) };
    },
    async count(where) {
      return pick(where).length;
    },
    async update(row, changes) {
      writes.push({ id: String(row.Id), changes });
      if (opts.refuse) throw new Error('Not allowed');
      return { ...row, ...changes };
    },
  };
  return { source, reads, writes };
}
const settle = () => new Promise((r) => setTimeout(r, 5));

test('lanes read their first page with their own where; more on demand', async () => {
  const rows = Array.from({ length: 60 }, (_, i) => ({ Id: i + 1, Stage: i < 40 ? 'Demo' : i < 45 ? 'Live' : null }));
  const { source, reads } = memorySource(rows);
  const k = new KanbanStore(source, 'Stage', ['Demo', 'Live'], { where: '(Id,gt,0)', sort: '', search: '' });
  k.reset();
  await settle();
  expect(reads.map((r) => r.where).sort()).toEqual(['(Id,gt,0)~and((Stage,blank)~or(Stage,nin,Demo,Live))', '(Id,gt,0)~and(Stage,eq,Demo)', '(Id,gt,0)~and(Stage,eq,Live)']);
  expect(k.lane('Demo').rows).toHaveLength(LANE_PAGE);
  expect([k.lane('Demo').total, k.lane('Live').done]).toEqual([40, true]);
  await k.loadMore('Demo');
  expect(k.lane('Demo').rows).toHaveLength(40);
  expect(k.lane('Demo').done).toBe(true);
});

test('a moved card shows at once and is saved; a refused move goes back', async () => {
  const rows = [{ Id: 1, Stage: 'Demo' }, { Id: 2, Stage: 'Demo' }];
  const ok = memorySource(rows);
  const k = new KanbanStore(ok.source, 'Stage', ['Demo', 'Live'], { where: '', sort: '', search: '' });
  k.reset();
  await settle();
  const moving = k.move('1', 'Demo', UNCATEGORIZED);
  expect(k.lane(UNCATEGORIZED).rows.map((r) => r.Id)).toEqual([1]);
  await moving;
  expect(ok.writes).toEqual([{ id: '1', changes: { Stage: null } }]);
  expect([k.lane('Demo').total, k.lane(UNCATEGORIZED).total]).toEqual([1, 1]);

  const refused = memorySource(rows, { refuse: true });
  const r = new KanbanStore(refused.source, 'Stage', ['Demo', 'Live'], { where: '', sort: '', search: '' });
  r.reset();
  await settle();
  await expect(r.move('2', 'Demo', 'Live')).rejects.toThrow('Not allowed');
  expect(r.lane('Demo').rows.map((x) => x.Id).sort()).toEqual([1, 2]);
  expect(r.lane('Live').rows).toEqual([]);
});

test('a move refused after the lanes were read again leaves the lanes as read (the card is not put back twice)', async () => {
  const rows = [{ Id: 1, Stage: 'Demo' }, { Id: 2, Stage: 'Demo' }];
  const { source } = memorySource(rows);
  let refuse!: (e: Error) => void;
  const slow: RowSource = { ...source, update: () => new Promise<Row>((_, reject) => (refuse = reject)) };
  const k = new KanbanStore(slow, 'Stage', ['Demo', 'Live'], { where: '', sort: '', search: '' });
  k.reset();
  await settle();
  const moving = k.move('2', 'Demo', 'Live');
  // The lanes are read again (a new filter, another user's change) while the write is on its way.
  k.reset();
  await settle();
  refuse(new Error('Not allowed'));
  await expect(moving).rejects.toThrow('Not allowed');
  expect(k.lane('Demo').rows.map((x) => x.Id)).toEqual([1, 2]);
  expect([k.lane('Demo').total, k.lane('Live').total]).toEqual([2, 0]);
});

test('a calendar reads only its range; a moved entry keeps its time and moves its end', async () => {
  const rows = [{ Id: 7, At: '2026-11-03 09:30:00', Until: '2026-11-05' }];
  const { source, reads, writes } = memorySource(rows);
  const c = new CalendarStore(source, 'At', 'Until', { dateTime: true, endDateTime: false }, { where: '(Id,gt,0)', sort: '', search: '' });
  await c.load('2026-10-26', '2026-12-06');
  expect(reads[0]!.where).toBe('(Id,gt,0)~and((At,le,2026-12-06 23:59:59)~and((At,ge,2026-10-26 00:00:00)~or(Until,ge,2026-10-26)))');
  expect(reads[0]!.sort).toBe('At');
  await c.move(c.rows.value[0]!, '2026-11-03', '2026-11-10');
  expect(writes).toEqual([{ id: '7', changes: { At: '2026-11-10 09:30:00', Until: '2026-11-12' } }]);
  expect(c.rows.value[0]!.At).toBe('2026-11-10 09:30:00');
});
