/**
 * Hook and cron logic without I/O: conditions evaluated against rows, templates and their syntax
 * errors, the signature, cron pattern checks, and the condition builder's round trip.
 */
import { describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { parseHookCondition, rowMatches } from '../../src/hooks/condition';
import { checkTemplates, NotificationSchema, render, renderUrl } from '../../src/hooks/notification';
import { signature } from '../../src/hooks/send';
import { checkPattern, nextRuns } from '../../src/cron/schedule';
import { fromWhere, toWhere } from '../../web/src/features/grid/query-builder';
import type { ColumnModel, TableModel } from '../../src/schema/model';

const column = (cn: string, kind: ColumnModel['kind']): ColumnModel => ({
  cn, _cn: cn.charAt(0).toUpperCase() + cn.slice(1), dt: kind, uidt: 'SingleLineText', kind, pk: false, ai: false, nullable: true, default: null,
});
const T: TableModel = {
  tn: 'orders', _tn: 'Orders', type: 'table', pks: ['id'], displayColumn: 'title', relations: [],
  columns: [column('id', 'integer'), column('title', 'string'), column('qty', 'integer'), column('paid', 'boolean'), column('at', 'datetime'), column('note', 'string')],
};
const matches = (where: string, row: Record<string, unknown>) => rowMatches(parseHookCondition(where, T), row, T);

describe('conditions against the written row', () => {
  const row = { Id: 7, Title: 'Big Order', Qty: 12, Paid: true, At: '2026-03-01 10:00:00', Note: null };
  test('comparisons, like, in, between, blank, checked, and / or / not', () => {
    expect(matches('(Qty,gt,10)', row)).toBe(true);
    expect(matches('(Qty,gt,12)', row)).toBe(false);
    expect(matches('(Qty,ge,12)~and(Title,like,%order%)', row)).toBe(true);
    expect(matches('(Title,eq,big order)', row)).toBe(true);
    expect(matches('(Title,nlike,%big%)', row)).toBe(false);
    expect(matches('(Id,in,1,7,9)', row)).toBe(true);
    expect(matches('(Id,nin,1,7,9)', row)).toBe(false);
    expect(matches('(Qty,btw,10,20)', row)).toBe(true);
    expect(matches('(At,gt,2026-02-28)', row)).toBe(true);
    expect(matches('(At,lt,2026-03-01 09:00:00)', row)).toBe(false);
    expect(matches('(Note,blank)', row)).toBe(true);
    expect(matches('(Note,is,null)~and(Paid,checked)', row)).toBe(true);
    expect(matches('(Paid,notchecked)', row)).toBe(false);
    expect(matches('(Qty,lt,5)~or(Title,eq,Big Order)', row)).toBe(true);
    expect(matches('(Qty,gt,5)~not(Paid,checked)', row)).toBe(false);
    expect(matches('(Note,neq,x)', row)).toBe(true);
    // A row without a value is "not in" any list and "not between" any range, as it is "not equal".
    expect(matches('(Note,nin,x,y)', row)).toBe(true);
    expect(matches('(Note,nbtw,1,5)', row)).toBe(true);
    expect(matches('(Note,in,x,y)', row)).toBe(false);
    expect(matches('(Note,eq,x)', row)).toBe(false);
  });
  test('no condition matches every row; bad ones answer 400 naming the column', () => {
    expect(rowMatches(parseHookCondition('', T), {}, T)).toBe(true);
    expect(() => parseHookCondition('(Nope,eq,1)', T)).toThrow("Column 'Nope' not found");
    expect(() => parseHookCondition('(Qty,zz,1)', T)).toThrow('Invalid comparison operator');
  });
});

describe('templates and signature', () => {
  const payload = { event: 'after.insert', table: 'Orders', data: { Title: 'say "hi"', Qty: 3 }, hook: { id: 'hk', title: 't' }, at: 'now' };
  test('values render, JSON templates escape strings, nothing runs as code', () => {
    expect(render('{{ data.Title }} x{{ data.Qty }}', payload)).toBe('say "hi" x3');
    expect(JSON.parse(render('{"t": "{{ data.Title }}"}', payload, 'json'))).toEqual({ t: 'say "hi"' });
    expect(render('{{ constructor.constructor }}', payload)).not.toContain('function');
  });
  test('a URL template percent-encodes values; one that leaves no http(s) URL is named', () => {
    expect(renderUrl('http://x.test/o/{{ data.Title }}?q={{ data.Qty }}', payload)).toBe('http://x.test/o/say%20%22hi%22?q=3');
    expect(() => renderUrl('{{ data.Nope }}http://x.test', payload)).not.toThrow();
    expect(() => renderUrl('http{{ data.Nope }}', { data: { Nope: ':x' } })).toThrow('is not an http(s) URL');
  });
  test('a template syntax error is a 400 naming the part', () => {
    const n = NotificationSchema.parse({ type: 'url', url: 'http://127.0.0.1/x', body: '{{ data.Title' });
    expect(() => checkTemplates(n)).toThrow('Template error in the body');
    const mail = NotificationSchema.parse({ type: 'email', to: 'not-an-address', subject: 's', body: 'b' });
    expect(() => checkTemplates(mail)).toThrow("'not-an-address' is not an e-mail address");
  });
  test('the signature is the hex HMAC-SHA256 of the body', () => {
    expect(signature('s3cret', '{"a":1}')).toBe(`sha256=${createHmac('sha256', 's3cret').update('{"a":1}').digest('hex')}`);
  });
});

describe('cron patterns', () => {
  test('5 and 6 fields with a time zone; bad ones name the pattern', () => {
    expect(() => checkPattern('*/5 * * * *', 'Europe/Berlin')).not.toThrow();
    const [a, b] = nextRuns('*/10 * * * * *', 'UTC', 2, new Date('2026-01-01T00:00:03Z'));
    expect([a, b]).toEqual(['2026-01-01T00:00:10.000Z', '2026-01-01T00:00:20.000Z']);
    expect(nextRuns('0 9 * * *', 'Europe/Berlin', 1, new Date('2026-01-01T00:00:00Z'))).toEqual(['2026-01-01T08:00:00.000Z']);
    expect(() => checkPattern('61 * * * *', 'UTC')).toThrow("Invalid cron pattern '61 * * * *'");
    expect(() => checkPattern('* * * * * * *', 'UTC')).toThrow('use 5');
    expect(() => checkPattern('* * * * *', 'Nowhere/City')).toThrow("Unknown time zone 'Nowhere/City'");
  });
});

describe('the condition builder', () => {
  test('builder rows and the where language round-trip; other text stays raw', () => {
    const rows = [{ column: 'Qty', op: 'gt', value: '10' }, { column: 'Title', op: 'like', value: 'big' }, { column: 'Note', op: 'blank', value: '' }];
    expect(fromWhere(toWhere(rows))).toEqual(rows);
    expect(fromWhere('')).toEqual([]);
    expect(fromWhere('(a,eq,1)~or(b,eq,2)')).toBeNull();
    expect(fromWhere('((a,eq,1))')).toBeNull();
  });
});

describe('log retention', () => {
  test('a hook keeps its newest log lines, a cron job its newest runs', async () => {
    const { openSqliteMetaStore } = await import('../../src/meta/sqlite-store');
    const { migrateMeta } = await import('../../src/meta/migrate');
    const { hookQueueRepo } = await import('../../src/meta/hook-queue-repo');
    const { cronsRepo } = await import('../../src/meta/crons-repo');
    const meta = openSqliteMetaStore(':memory:');
    await migrateMeta(meta);
    await meta.run('PRAGMA foreign_keys = OFF');
    const q = hookQueueRepo(meta);
    for (let i = 0; i < 6; i++) {
      await q.logOnly('hk1', `e${i}`, { status: 'success', responseStatus: 200, error: null, durationMs: 1 });
      await Bun.sleep(2);
    }
    await q.prune('hk1', 3);
    expect((await q.logs('hk1', 100)).map((l) => l.event)).toEqual(['e5', 'e4', 'e3']);
    const crons = cronsRepo(meta, 2);
    for (let i = 0; i < 4; i++) {
      const run = (await crons.claimTick('cj1', `tick${i}`, false))!;
      expect(await crons.claimTick('cj1', `tick${i}`, false)).toBeNull();
      await crons.finishRun({ ...run, status: 'success', finished_at: run.started_at, duration_ms: 0 });
      await Bun.sleep(2);
    }
    expect((await crons.runs('cj1', 10)).map((r) => r.tick)).toEqual(['tick3', 'tick2']);
    await meta.close();
  });
});
