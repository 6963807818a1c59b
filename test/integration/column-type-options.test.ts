/**
 * Type options of columns (`ColumnInput.meta`) per engine (SQLite, PostgreSQL, MariaDB): checked
 * with clear 400s, kept in metadata across syncs, shown by tableMeta with their defaults, changed
 * by columnUpdate without a migration, and applied to writes (rating maximum, durations as text,
 * numbers for currency and percent, select choices, attachment lists).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

setDefaultTimeout(30_000);

type Col = { cn: string; uidt: string; meta: Record<string, unknown> | null; enumValues: string[] | null };

describeEngines('column type options', (engine: TestEngine) => {
  const name = `tablo_t_topt_${engine}`;
  let t: TestApp;
  let token: string;
  let projectId: string;

  const call = (api: string, args: unknown) => dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
  const op = async (api: string, args: unknown) => {
    const res = await call(api, args);
    if (res.status !== 200) throw new Error(`${api}: expected 200, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const refused = async (api: string, args: unknown) => {
    const res = await call(api, args);
    expect(res.status).toBe(400);
    return res.body.msg as string;
  };
  const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });
  const columns = async (): Promise<Record<string, Col>> => Object.fromEntries((await op('tableMeta', { tn: 'item' })).columns.map((c: Col) => [c.cn, c]));

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    const cfg = await freshDatabase(engine, name);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
    }
    const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Options ${engine}`, inflectionColumn: 'none', db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    projectId = res.body.id;
    await op('tableCreate', { tn: 'item', _tn: 'Items' });
  });
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, name);
  });

  describe('options', () => {
    test('columnAdd keeps each type its options; tableMeta shows them with the defaults', async () => {
      await op('columnAdd', { tn: 'item', column: { cn: 'price', uidt: 'Currency', meta: { currency: 'eur', locale: 'de-DE' } } });
      await op('columnAdd', { tn: 'item', column: { cn: 'fee', uidt: 'Currency' } });
      await op('columnAdd', { tn: 'item', column: { cn: 'share', uidt: 'Percent', meta: { precision: 1 } } });
      await op('columnAdd', { tn: 'item', column: { cn: 'stars', uidt: 'Rating', meta: { max: 3, icon: 'heart' } } });
      await op('columnAdd', { tn: 'item', column: { cn: 'score', uidt: 'Rating' } });
      await op('columnAdd', { tn: 'item', column: { cn: 'spent', uidt: 'Duration', meta: { format: 'h:mm:ss' } } });
      await op('columnAdd', { tn: 'item', column: { cn: 'took', uidt: 'Duration' } });
      await op('columnAdd', { tn: 'item', column: { cn: 'weight', uidt: 'Decimal', dtxp: '12,4', meta: { precision: 2 } } });
      await op('columnAdd', { tn: 'item', column: { cn: 'status', uidt: 'SingleSelect', meta: { options: [{ title: 'todo', color: '#ff0000' }, { title: 'done' }] } } });
      await op('columnAdd', { tn: 'item', column: { cn: 'tags', uidt: 'MultiSelect', options: ['a', 'b', 'c'] } });
      await op('columnAdd', { tn: 'item', column: { cn: 'files', uidt: 'Attachment', meta: { maxFiles: 2, accept: 'image/*, .pdf' } } });
      const c = await columns();
      expect(c.price!.meta).toEqual({ currency: 'EUR', locale: 'de-DE' });
      expect(c.fee!.meta).toEqual({ currency: 'USD' });
      expect(c.share!.meta).toEqual({ precision: 1 });
      expect(c.stars!.meta).toEqual({ max: 3, icon: 'heart' });
      expect(c.score!.meta).toEqual({ max: 5, icon: 'star' });
      expect(c.spent!.meta).toEqual({ format: 'h:mm:ss' });
      expect(c.took!.meta).toEqual({ format: 'h:mm' });
      expect(c.weight!.meta).toEqual({ precision: 2 });
      expect(c.status!.enumValues).toEqual(['todo', 'done']);
      expect(c.status!.meta!.options).toEqual([{ title: 'todo', color: '#ff0000' }, { title: 'done', color: expect.stringMatching(/^#[0-9a-f]{6}$/) }]);
      expect((c.tags!.meta!.options as { title: string }[]).map((o) => o.title)).toEqual(['a', 'b', 'c']);
      expect(c.files!.meta).toEqual({ maxFiles: 2, accept: ['image/*', '.pdf'] });
      expect(c.title!.meta).toBeNull();
    });

    test('tableCreate keeps the options of its columns', async () => {
      const made = await op('tableCreate', {
        tn: 'trip',
        columns: [
          { cn: 'id', uidt: 'ID' },
          { cn: 'cost', uidt: 'Currency', meta: { currency: 'GBP' } },
          { cn: 'mood', uidt: 'SingleSelect', options: ['calm', 'busy'], meta: { options: [{ title: 'calm', color: '#112233' }, 'busy'] } },
        ],
      });
      const byCn = Object.fromEntries(made.table.columns.map((c: Col) => [c.cn, c]));
      expect(byCn.cost.meta).toEqual({ currency: 'GBP' });
      expect(byCn.mood.enumValues).toEqual(['calm', 'busy']);
      expect(byCn.mood.meta.options[0]).toEqual({ title: 'calm', color: '#112233' });
      expect((await refused('tableCreate', { tn: 'trip2', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'r', uidt: 'Rating', meta: { max: 99 } }] }))).toContain('meta.max');
      expect((await op('tableList', {})).data.list.map((x: { tn: string }) => x.tn)).not.toContain('trip2');
    });

    test('bad options answer 400 naming the option, and add nothing', async () => {
      const add = (cn: string, uidt: string, meta: unknown, extra: Record<string, unknown> = {}) => refused('columnAdd', { tn: 'item', column: { cn, uidt, meta, ...extra } });
      expect(await add('x1', 'Currency', { currency: 'XYZ' })).toContain('meta.currency: currency is an ISO 4217 code');
      expect(await add('x2', 'Currency', { locale: '!!' })).toContain('meta.locale');
      expect(await add('x3', 'Rating', { max: 11 })).toContain('meta.max: max is at most 10');
      expect(await add('x4', 'Rating', { max: 0 })).toContain('meta.max: max is at least 1');
      expect(await add('x5', 'Duration', { format: 'mm:ss' })).toContain('meta.format');
      expect(await add('x6', 'Percent', { precision: 2.5 })).toContain('meta.precision: precision is a whole number');
      expect(await add('x7', 'Rating', { currency: 'USD' })).toContain("a Rating column takes no option 'currency'");
      expect(await add('x8', 'Email', { max: 3 })).toContain('an Email column takes no options');
      expect(await add('x9', 'SingleSelect', { options: [{ title: 'a', color: 'red' }] })).toContain('A colour is written #rrggbb');
      expect(await add('x10', 'SingleSelect', { options: ['a', 'a'] })).toContain('The choices must differ');
      expect(await add('x11', 'SingleSelect', { options: ['a'] }, { options: ['b'] })).toContain('either as options or as meta.options');
      expect(await add('x12', 'Attachment', { accept: ['not a type'] })).toContain('meta.accept');
      expect(await refused('columnAdd', { tn: 'item', column: { cn: 'x13', uidt: 'Rating', meta: 'big' } })).toContain('meta');
      const c = await columns();
      expect(Object.keys(c).some((cn) => /^x\d+$/.test(cn))).toBe(false);
    });

    test('columnUpdate changes options in metadata only (migration null); a type change drops them', async () => {
      const changed = await op('columnUpdate', { tn: 'item', cn: 'stars', column: { meta: { max: 10 } } });
      expect(changed.migration).toBeNull();
      expect(changed.statements).toEqual([]);
      let c = await columns();
      expect(c.stars!.meta).toEqual({ max: 10, icon: 'heart' });
      expect((await refused('columnUpdate', { tn: 'item', cn: 'stars', column: { meta: { max: 20 } } }))).toContain('meta.max');

      // Colours change without the choices; choices change and keep the colours of those that stay.
      await op('columnUpdate', { tn: 'item', cn: 'status', column: { meta: { options: [{ title: 'todo', color: '#00ff00' }, { title: 'done', color: '#0000ff' }] } } });
      await op('columnUpdate', { tn: 'item', cn: 'status', column: { options: ['todo', 'done', 'later'] } });
      c = await columns();
      expect(c.status!.enumValues).toEqual(['todo', 'done', 'later']);
      expect((c.status!.meta!.options as { color: string }[]).slice(0, 2).map((o) => o.color)).toEqual(['#00ff00', '#0000ff']);
      await op('columnUpdate', { tn: 'item', cn: 'price', column: { _cn: 'Price' } });
      expect((await columns()).price!.meta).toEqual({ currency: 'EUR', locale: 'de-DE' });

      // Options survive a schema sync.
      await op('metaSync', {});
      c = await columns();
      expect(c.price!.meta).toEqual({ currency: 'EUR', locale: 'de-DE' });
      expect(c.spent!.meta).toEqual({ format: 'h:mm:ss' });

      await op('columnAdd', { tn: 'item', column: { cn: 'level', uidt: 'Rating', meta: { max: 4 } } });
      const retyped = await op('columnUpdate', { tn: 'item', cn: 'level', column: { uidt: 'Currency', meta: { currency: 'JPY' } } });
      expect(retyped.migration).not.toBeNull();
      expect((await columns()).level!.meta).toEqual({ currency: 'JPY' });
      await op('columnUpdate', { tn: 'item', cn: 'level', column: { uidt: 'Number' } });
      expect((await columns()).level!.meta).toBeNull();
    });
  });

  describe('writes', () => {
    const bad = async (body: Record<string, unknown>, words: string) => {
      const res = await rest('POST', 'Items', { title: 'bad', ...body });
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain(words);
    };

    test('values are stored by the options: durations in seconds, ratings up to max, files as lists', async () => {
      const ok = await rest('POST', 'Items', {
        title: 'ok', Price: '12.50', share: 42.5, stars: 10, score: 5, took: '1:30', spent: '1:00:05', status: 'later', tags: ['a', 'c'],
        files: [{ url: 'https://example.com/a.png', title: 'a.png', mimetype: 'image/png', size: 10 }, { path: 'uploads/b.pdf' }],
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ title: 'ok', stars: 10, score: 5, took: 5400, spent: 3605, tags: 'a,c', status: 'later' });
      expect(Number(ok.body.Price)).toBe(12.5);
      expect(ok.body.files).toEqual([{ url: 'https://example.com/a.png', title: 'a.png', mimetype: 'image/png', size: 10 }, { path: 'uploads/b.pdf' }]);
      const seconds = await rest('POST', 'Items', { title: 'secs', took: 90, spent: '0:00:01.5' });
      expect(seconds.status).toBe(200);
      expect(seconds.body).toMatchObject({ took: 90, spent: 1.5 });
      const read = await rest('GET', `Items/${ok.body.id}`);
      expect(read.body).toMatchObject({ took: 5400, spent: 3605 });
    });

    test('a value the options refuse answers 400 naming the column', async () => {
      await bad({ score: 6 }, "Column 'score': 6 is not a rating from 0 to 5");
      await bad({ stars: 2.5 }, "Column 'stars'");
      await bad({ took: 'an hour' }, "Column 'took': \"an hour\" is not a duration (h:mm or seconds)");
      await bad({ took: '1:75' }, "Column 'took'");
      // Hundreds of digits would be Infinity: stored as NULL, not as the duration sent.
      await bad({ took: '9'.repeat(400) }, "Column 'took'");
      await bad({ spent: `${'9'.repeat(400)}:00:00` }, "Column 'spent'");
      await bad({ Price: '1e400' }, "Column 'Price'");
      await bad({ Price: 'ten' }, "Column 'Price'");
      await bad({ share: 'half' }, "Column 'share'");
      await bad({ tags: ['a', 'z'] }, "Column 'tags'");
      await bad({ status: 'never' }, "Column 'status'");
      await bad({ files: 'not json' }, "Column 'files'");
      await bad({ files: [{ title: 'no url' }] }, "Column 'files'");
      await bad({ files: [{ url: 'https://x.test/a.png' }, { url: 'https://x.test/b.png' }, { url: 'https://x.test/c.png' }] }, "Column 'files' holds at most 2 files");
      await bad({ files: [{ url: 'https://x.test/a.exe', mimetype: 'application/x-msdownload' }] }, "Column 'files' accepts only image/*, .pdf");
      const listed = await rest('GET', 'Items?where=(title,eq,bad)');
      expect(listed.body.list ?? listed.body).toEqual([]);
    });
  });

  test('rollups and lookups of a typed column are shown as that column (a sum of a Currency is currency)', async () => {
    await op('tableCreate', { tn: 'basket', _tn: 'Baskets' });
    await op('relationCreate', { type: 'hm', parentTn: 'basket', childTn: 'item' });
    const add = (column: unknown) => op('virtualColumnCreate', { tn: 'basket', column });
    await add({ _cn: 'Total', uidt: 'Rollup', rollup: { relation: { type: 'hm', rtn: 'item' }, column: 'Price', fn: 'sum' } });
    await add({ _cn: 'Longest', uidt: 'Rollup', rollup: { relation: { type: 'hm', rtn: 'item' }, column: 'spent', fn: 'max' } });
    await add({ _cn: 'Count', uidt: 'Rollup', rollup: { relation: { type: 'hm', rtn: 'item' }, column: 'Price', fn: 'count' } });
    await add({ _cn: 'Names', uidt: 'Rollup', rollup: { relation: { type: 'hm', rtn: 'item' }, column: 'title', fn: 'max' } });
    const shows = Object.fromEntries((await op('tableMeta', { tn: 'basket' })).virtuals.map((v: { _cn: string; shows?: unknown }) => [v._cn, v.shows ?? null]));
    expect(shows).toEqual({
      Total: { uidt: 'Currency', meta: { currency: 'EUR', locale: 'de-DE' } },
      Longest: { uidt: 'Duration', meta: { format: 'h:mm:ss' } },
      Count: null,
      Names: null,
    });
  });
});
