/**
 * The API client's server route and the gRPC bridge: requests from the server refuse loopback,
 * private and link-local addresses by default (also behind a host name), reach them when allowed;
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

  test('an unreachable host answers 502 with the reason', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const res = await op('open', 'apiClientSend', { method: 'GET', url: `http://127.0.0.1:${port}/` });
    expect(res.status).toBe(502);
    expect(res.body.msg).toMatch(/^Could not reach 127\.0\.0\.1/);
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
    const list = (await op('strict', 'apiClientItemList', { kind: 'request' })).body.data.list;
    expect(list.map((i: { name: string; collection: string }) => [i.collection, i.name])).toEqual([['Albums', 'All albums']]);
    expect((await op('strict', 'apiClientItemList', { kind: 'request' }, { 'xc-preview': 'viewer' })).status).toBe(200);
    expect((await op('strict', 'apiClientItemSave', { kind: 'request', name: 'x', data: {} }, { 'xc-preview': 'viewer' })).status).toBe(403);
    expect((await op('strict', 'apiClientItemDelete', { id: saved.body.id })).body).toEqual({ ok: true });
    expect((await op('strict', 'apiClientItemDelete', { id: saved.body.id })).status).toBe(404);
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
});
