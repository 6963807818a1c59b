/**
 * The API client's server route and the gRPC bridge: requests from the server refuse loopback,
 * private and link-local addresses by default (also behind a host name), reach them when allowed,
 * and answer 504 when the host keeps silent past the time limit;
 * a real gRPC server with reflection on loopback is listed and called (unary, errors with status,
 * server streaming); saved items and the history (newest first, 500 kept); only owners and creators
 * send from the server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { startGrpcServer, type TestGrpcServer } from '../helpers/grpc-server';
import { blockedReason } from '../../src/api/clients/address-guard';
import { LIMITS } from '../../src/config/limits';

let strict: TestApp;
let open: TestApp;
let tokens: { strict: string; open: string };
let pids: { strict: string; open: string };
let grpcServer: TestGrpcServer;
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  strict = await makeTestApp();
  open = await makeTestApp({ apiClientAllowPrivate: true });
  tokens = { strict: (await signupSuperAdmin(strict)).token, open: (await signupSuperAdmin(open)).token };
  pids = {
    strict: (await dashboardOp(strict, tokens.strict, 'projectCreateByWeb', { args: { title: 'Client' } })).body.id,
    open: (await dashboardOp(open, tokens.open, 'projectCreateByWeb', { args: { title: 'Client' } })).body.id,
  };
  grpcServer = await startGrpcServer();
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (r) => Response.json({ method: r.method, path: new URL(r.url).pathname, header: r.headers.get('x-test'), body: r.method === 'GET' ? null : await r.text() }, { headers: { 'x-answer': 'yes' } }),
  });
});
afterAll(async () => {
  receiver.stop(true);
  await grpcServer.stop();
  await strict.close();
  await open.close();
});

const op = (which: 'strict' | 'open', api: string, args: unknown, headers: Record<string, string> = {}) =>
  dashboardOp(which === 'strict' ? strict : open, tokens[which], api, { project_id: pids[which], args, headers });

describe('address rules', () => {
  test('loopback, private, link-local, unspecified and mapped addresses are refused; public ones pass', () => {
    for (const ip of ['127.0.0.1', '127.8.8.8', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect({ ip, blocked: blockedReason(ip) !== null }).toEqual({ ip, blocked: true });
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111']) expect({ ip, reason: blockedReason(ip) }).toEqual({ ip, reason: null });
  });

  test('the server refuses to send to private addresses by default, names included', async () => {
    for (const url of [`http://127.0.0.1:${receiver.port}/x`, 'http://localhost:9/x', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://[::1]:80/']) {
      const res = await op('strict', 'apiClientSend', { method: 'GET', url });
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
      expect(res.body.msg).toContain('NC_API_CLIENT_ALLOW_PRIVATE');
    }
    const grpc = await op('strict', 'grpcServices', { address: grpcServer.address });
    expect(grpc.status).toBe(403);
  });

  test('bad input: a URL that is not one, another scheme, a server address without a port', async () => {
    expect((await op('strict', 'apiClientSend', { method: 'GET', url: 'not a url' })).body).toEqual({ msg: "'not a url' is not a valid URL" });
    expect((await op('strict', 'apiClientSend', { method: 'GET', url: 'file:///etc/passwd' })).status).toBe(400);
    expect((await op('strict', 'grpcServices', { address: 'no port' })).status).toBe(400);
  });

  test('a header no request can carry is bad input (400 naming it), not an unreachable host', async () => {
    const send = (headers: Record<string, string>) => op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${receiver.port}/x`, headers });
    expect(await send({ 'bad name': 'x' })).toMatchObject({ status: 400, body: { msg: "'bad name' is not a valid header name: use letters, digits and - _ . only, without spaces" } });
    expect(await send({ 'x-city': '北京' })).toMatchObject({ status: 400, body: { msg: "The value of header 'x-city' cannot be sent: a header holds one line of Latin-1 characters" } });
    expect((await send({ 'x-two': 'a\r\nx-injected: 1' })).status).toBe(400);
    // Latin-1 letters and tabs are fine.
    const ok = await send({ 'x-test': 'naïve\tvalue' });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe(200);
  });
});

describe('sending when private addresses are allowed', () => {
  test('a request with headers and a body comes back with status, headers, size and time', async () => {
    const res = await op('open', 'apiClientSend', { method: 'POST', url: `http://127.0.0.1:${receiver.port}/hooks?x=1`, headers: { 'x-test': 'abc' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(JSON.parse(res.body.body)).toEqual({ method: 'POST', path: '/hooks', header: 'abc', body: '{"a":1}' });
    expect(res.body.headers).toContainEqual(['x-answer', 'yes']);
    expect(res.body.size).toBe(res.body.body.length);
    expect(typeof res.body.timeMs).toBe('number');
  });

  test('a binary answer (an image, bytes that are not UTF-8) comes back in base64, marked binary; text stays text', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x81]);
    const files = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (r) => {
        const path = new URL(r.url).pathname;
        if (path === '/logo.png') return new Response(png, { headers: { 'content-type': 'image/png' } });
        if (path === '/raw') return new Response(bytes, { headers: { 'content-type': 'text/plain' } });
        return new Response('héllo', { headers: { 'content-type': 'text/plain; charset=utf-8' } });
      },
    });
    try {
      const image = await op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${files.port}/logo.png` });
      expect(image.body).toMatchObject({ status: 200, binary: true, size: png.length });
      expect(Buffer.from(image.body.body, 'base64').equals(png)).toBe(true);
      // Named text, but not UTF-8: bytes all the same, never mangled into replacement characters.
      const raw = await op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${files.port}/raw` });
      expect(raw.body.binary).toBe(true);
      expect([...Buffer.from(raw.body.body, 'base64')]).toEqual([...bytes]);
      const text = await op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${files.port}/text` });
      expect(text.body).toMatchObject({ binary: false, body: 'héllo', size: 6 });
    } finally {
      files.stop(true);
    }
  });

  test('an unreachable host answers 502 with the reason', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const res = await op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${port}/` });
    expect(res.status).toBe(502);
    expect(res.body.msg).toMatch(/^Could not reach 127\.0\.0\.1/);
  });

  test('a host that never answers, or stops halfway through its answer, answers 504 naming it at the time limit', async () => {
    // Loopback servers that take the request and then say nothing (or only the start of an answer).
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data: () => {} } });
    const halfway = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data: (s) => void s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc') } });
    try {
      const started = performance.now();
      const [never, stalled] = await Promise.all([
        op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${silent.port}/slow` }),
        op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${halfway.port}/slow` }),
      ]);
      const limit = LIMITS.apiClientTimeoutMs / 1000;
      expect({ status: never.status, body: never.body }).toEqual({ status: 504, body: { msg: `127.0.0.1:${silent.port} did not answer within ${limit} s` } });
      expect({ status: stalled.status, body: stalled.body }).toEqual({ status: 504, body: { msg: `127.0.0.1:${halfway.port} did not finish its answer within ${limit} s` } });
      expect(performance.now() - started).toBeLessThan(LIMITS.apiClientTimeoutMs + 5_000);
    } finally {
      silent.stop(true);
      halfway.stop(true);
    }
  }, LIMITS.apiClientTimeoutMs + 15_000);

  test('gRPC: a server that is not there answers 502 with a readable reason', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
    const address = `127.0.0.1:${closed.port}`;
    closed.stop(true);
    const list = await op('open', 'grpcServices', { address });
    expect(list.status).toBe(502);
    expect(list.body.msg).toBe(`Could not list the services of ${address} (does it offer server reflection?): 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED ${address}.`);
    const call = await op('open', 'grpcCall', { address, service: 'a.B', method: 'C', request: {} });
    expect(call.status).toBe(502);
    expect(call.body.msg).not.toMatch(/Resolution note|Last error: null|Error: /);
  });

  test('gRPC: services and methods through reflection, with request templates', async () => {
    const res = await op('open', 'grpcServices', { address: grpcServer.address });
    expect(res.status).toBe(200);
    expect(res.body.services.map((s: { name: string }) => s.name)).toEqual(['tablo.test.Greeter']);
    const methods = res.body.services[0].methods;
    expect(methods.map((m: { name: string; serverStreaming: boolean }) => [m.name, m.serverStreaming])).toEqual([['SayHello', false], ['Count', true]]);
    expect(methods[0].template).toEqual({ name: '', times: 0, mood: 'MOOD_UNSPECIFIED', address: { city: '' }, tags: [] });
  });

  test('gRPC: a unary call with its reply and trailers; an error with its status', async () => {
    const ok = await op('open', 'grpcCall', { address: grpcServer.address, service: 'tablo.test.Greeter', method: 'SayHello', request: { name: 'Ada', address: { city: 'London' } } });
    expect(ok.status).toBe(200);
    expect(ok.body.messages).toEqual([{ message: 'Hello Ada from London' }]);
    expect(ok.body.status).toEqual({ code: 0, name: 'OK', details: 'OK' });
    expect(ok.body.trailers['x-served-by']).toBe('test-greeter');
    const bad = await op('open', 'grpcCall', { address: grpcServer.address, service: 'tablo.test.Greeter', method: 'SayHello', request: {} });
    expect(bad.body.messages).toEqual([]);
    expect(bad.body.status).toEqual({ code: 3, name: 'INVALID_ARGUMENT', details: 'name is required' });
    expect((await op('open', 'grpcCall', { address: grpcServer.address, service: 'tablo.test.Greeter', method: 'Nope' })).status).toBe(400);
  });

  test('gRPC: a request that does not fit its message type, or metadata gRPC cannot carry, is a 400 naming it (never sent as something else)', async () => {
    const call = (request: unknown, metadata: Record<string, string> = {}) => op('open', 'grpcCall', { address: grpcServer.address, service: 'tablo.test.Greeter', method: 'SayHello', request, metadata });
    const refused: [unknown, string][] = [
      [{ name: 'x', times: 'abc' }, "times must be a whole number (got 'abc')"],
      [{ name: { first: 'A' } }, 'name must be text (got {"first":"A"})'],
      [{ name: 'x', nosuch: 1 }, "HelloRequest has no field 'nosuch'"],
      [{ name: 'x', mood: 'GRUMPY' }, "mood is not one of Mood's values MOOD_UNSPECIFIED, HAPPY (got 'GRUMPY')"],
      [{ name: 'x', address: { town: 'Paris' } }, "Address has no field 'town' (at address.town)"],
      [{ name: 'x', tags: 'a' }, 'tags must be a JSON array'],
      [{ name: 'x', tags: ['a', 2] }, 'tags[1] must be text (got 2)'],
    ];
    for (const [request, msg] of refused) expect({ request, ...(await call(request)) }).toMatchObject({ request, status: 400, body: { msg } });
    expect(await call({ name: 'x' }, { 'bad name': 'v' })).toMatchObject({ status: 400, body: { msg: "'bad name' is not a valid metadata name: use letters, digits and - _ . only" } });
    expect(await call({ name: 'x' }, { 'x-token-bin': 'not base64!' })).toMatchObject({ status: 400, body: { msg: expect.stringContaining('must be base64') } });
    expect(await call({ name: 'x' }, { 'x-greeting': 'Grüß' })).toMatchObject({ status: 400, body: { msg: expect.stringContaining('printable ASCII') } });
    // What fits goes out as written: numbers as text, enum names, names in any case, -bin values as bytes.
    const ok = await call({ name: 'Ada', times: '2', mood: 'HAPPY', tags: ['a'] }, { 'X-Greeting': 'Hi', 'x-token-bin': Buffer.from([1, 2, 255]).toString('base64') });
    expect(ok.status).toBe(200);
    expect(ok.body.messages).toEqual([{ message: 'Hi Ada' }]);
    expect(ok.body.trailers['x-token-hex']).toBe('0102ff');
  });

  test('gRPC: a server stream answers every message', async () => {
    const res = await op('open', 'grpcCall', { address: grpcServer.address, service: 'tablo.test.Greeter', method: 'Count', request: { to: 5 } });
    expect(res.body.messages).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(res.body.status.code).toBe(0);
  });

  test('only owners and creators send from the server', async () => {
    const res = await op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${receiver.port}/` }, { 'xc-preview': 'editor' });
    expect(res.status).toBe(403);
    expect((await op('open', 'grpcCall', { address: grpcServer.address, service: 'tablo.test.Greeter', method: 'SayHello', request: { name: 'x' } }, { 'xc-preview': 'viewer' })).status).toBe(403);
  });
});

describe('saved requests, environments and history', () => {
  test('save, list, rename and delete; viewers list but do not change', async () => {
    const saved = await op('strict', 'apiClientItemSave', { kind: 'request', collection: 'Albums', name: 'List albums', data: { method: 'GET', url: '/api/v1/Album' } });
    expect(saved.status).toBe(200);
    expect((await op('strict', 'apiClientItemSave', { id: saved.body.id, kind: 'request', collection: 'Albums', name: 'All albums', data: { method: 'GET', url: '/api/v1/Album' } })).status).toBe(200);
    const env = await op('strict', 'apiClientItemSave', { kind: 'environment', name: 'dev', data: { variables: [{ key: 'table', value: 'Album', enabled: true }] } });
    expect(env.status).toBe(200);
    // Environments are picked by name: a second one of the same name (any case) is refused; saving the same one again is not.
    const twin = await op('strict', 'apiClientItemSave', { kind: 'environment', name: 'DEV', data: { variables: [] } });
    expect({ status: twin.status, body: twin.body }).toEqual({ status: 409, body: { msg: "An environment named 'DEV' already exists" } });
    expect((await op('strict', 'apiClientItemSave', { id: env.body.id, kind: 'environment', name: 'dev', data: { variables: [] } })).status).toBe(200);
    const list = (await op('strict', 'apiClientItemList', { kind: 'request' })).body.data.list;
    expect(list.map((i: { name: string; collection: string }) => [i.collection, i.name])).toEqual([['Albums', 'All albums']]);
    expect((await op('strict', 'apiClientItemList', { kind: 'request' }, { 'xc-preview': 'viewer' })).status).toBe(200);
    expect((await op('strict', 'apiClientItemSave', { kind: 'request', name: 'x', data: {} }, { 'xc-preview': 'viewer' })).status).toBe(403);
    // Editors send nothing from the server (owners and creators do): they keep no saved items either.
    expect((await op('strict', 'apiClientItemSave', { kind: 'request', name: 'x', data: {} }, { 'xc-preview': 'editor' })).status).toBe(403);
    expect((await op('strict', 'apiClientItemDelete', { id: saved.body.id }, { 'xc-preview': 'editor' })).status).toBe(403);
    expect((await op('strict', 'apiClientItemDelete', { id: saved.body.id })).body).toEqual({ ok: true });
    expect((await op('strict', 'apiClientItemDelete', { id: saved.body.id })).status).toBe(404);
  });

  test('members who do not send requests list saved requests and environments without their credentials', async () => {
    const data = {
      method: 'GET',
      url: 'https://api.example.com/orders',
      auth: 'owner-session',
      headers: [{ name: 'xc-token', value: 'owner-api-token', enabled: true }, { name: 'Authorization', value: 'Bearer abc', enabled: true }, { name: 'Accept', value: 'application/json', enabled: true }],
      params: [{ name: 'api_key', value: 'k-123', enabled: true }, { name: 'limit', value: '10', enabled: true }],
      body: '',
    };
    const request = await op('strict', 'apiClientItemSave', { kind: 'request', collection: 'Shop', name: 'Orders', data });
    const env = await op('strict', 'apiClientItemSave', { kind: 'environment', name: 'prod', data: { variables: [{ name: 'token', value: 'prod-token', enabled: true }] } });
    try {
      const find = (list: { id: string; data: any }[], id: string) => list.find((i) => i.id === id)!.data;
      // The owner who saved them reads them whole.
      expect(find((await op('strict', 'apiClientItemList', { kind: 'request' })).body.data.list, request.body.id)).toEqual(data);
      for (const role of ['editor', 'viewer']) {
        const seen = find((await op('strict', 'apiClientItemList', { kind: 'request' }, { 'xc-preview': role })).body.data.list, request.body.id);
        expect(seen.auth).toBe('');
        expect(seen.headers.map((h: { name: string; value: string }) => [h.name, h.value])).toEqual([['xc-token', ''], ['Authorization', ''], ['Accept', 'application/json']]);
        expect(seen.params.map((h: { name: string; value: string }) => [h.name, h.value])).toEqual([['api_key', ''], ['limit', '10']]);
        const vars = find((await op('strict', 'apiClientItemList', { kind: 'environment' }, { 'xc-preview': role })).body.data.list, env.body.id).variables;
        expect(vars).toEqual([{ name: 'token', value: '', enabled: true }]);
        expect(JSON.stringify(seen) + JSON.stringify(vars)).not.toMatch(/owner-api-token|Bearer abc|k-123|prod-token|owner-session/);
      }
    } finally {
      await op('strict', 'apiClientItemDelete', { id: request.body.id });
      await op('strict', 'apiClientItemDelete', { id: env.body.id });
    }
  });

  test('history: newest first, the newest 500 kept, per caller', async () => {
    for (let i = 1; i <= 503; i++) await op('strict', 'apiClientHistoryAdd', { entry: { request: { method: 'GET', url: `/r/${i}` }, response: { status: 200 } } });
    const list = (await op('strict', 'apiClientHistoryList', {})).body.data.list as { request: { url: string } }[];
    expect(list.length).toBe(500);
    expect(list[0]!.request.url).toBe('/r/503');
    expect(list[499]!.request.url).toBe('/r/4');
    expect((await op('strict', 'apiClientHistoryClear', {})).body).toEqual({ ok: true });
    expect((await op('strict', 'apiClientHistoryList', {})).body.data.list).toEqual([]);
  });

  test('history: each API token keeps its own', async () => {
    const token = async (description: string) => (await op('strict', 'xcApiTokenCreate', { description, role: 'creator' })).body.token as string;
    const [a, b] = [await token('client a'), await token('client b')];
    const byToken = (tok: string, api: string, args: unknown) => dashboardOp(strict, null, api, { project_id: pids.strict, args, headers: { 'xc-token': tok } });
    expect((await byToken(a, 'apiClientHistoryAdd', { entry: { request: { method: 'GET', url: '/by-a' } } })).status).toBe(200);
    const urls = async (tok: string) => ((await byToken(tok, 'apiClientHistoryList', {})).body.data.list as { request: { url: string } }[]).map((h) => h.request.url);
    expect(await urls(a)).toEqual(['/by-a']);
    expect(await urls(b)).toEqual([]);
  });
});
