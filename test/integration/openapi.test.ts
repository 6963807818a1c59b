/** The OpenAPI document of a project passes a real OpenAPI 3.1 validator; Swagger UI is served. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadAwkward, loadChinook } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

describeEngines('OpenAPI documents', (engine) => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    for (const [kind, load] of [['chinook', loadChinook], ['awkward', loadAwkward]] as const) {
      const cfg = await load(engine, `tablo_t_openapi_${kind}_${engine}`);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, `${kind}.sqlite`), Bun.file(cfg.connection.filename!));
        connection = { filename: `${kind}.sqlite` };
      }
      const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `${kind} ${engine}`, db: { client: engine, connection } } });
      ids[kind] = res.body.id;
    }
  });
  afterAll(async () => {
    await dropDatabase(engine, `tablo_t_openapi_chinook_${engine}`);
    await dropDatabase(engine, `tablo_t_openapi_awkward_${engine}`);
  });

  test('valid OpenAPI 3.1 with every table, route and column schema', async () => {
    for (const kind of ['chinook', 'awkward']) {
      const res = await t.request('GET', `/nc/${ids[kind]}/docs/openapi.json`, { headers: { 'xc-auth': token } });
      expect(res.status).toBe(200);
      const validator = new Validator();
      const result = await validator.validate(res.body);
      if (!result.valid) throw new Error(JSON.stringify(result.errors).slice(0, 2000));
      expect(validator.version).toBe('3.1');
      if (kind === 'chinook') {
        expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/Track', '/api/v1/Track/{id}', '/api/v1/Track/count', '/api/v1/Track/bulk', '/api/v1/Playlist/{id}/mm/Track/{targetId}']));
        expect(res.body.components.schemas.Track.properties.UnitPrice.type).toEqual(['number', 'string']);
        expect(res.body.components.schemas.TrackInput.required).toContain('Name');
        // Summaries read as sentences whatever the table's name ('Create a Album row' once).
        expect(res.body.paths['/api/v1/Album'].post.summary).toBe('Create a row in Album');
        // ... and name their kind and tables as data, for a client to say them in its user's language.
        expect(res.body.paths['/api/v1/Album'].post['x-tablo-summary']).toEqual({ kind: 'create', table: 'Album' });
        expect(res.body.paths['/api/v1/Album/has/Track'].get['x-tablo-summary']).toEqual({ kind: 'has', table: 'Album', other: 'Track' });
      } else {
        expect(res.body.paths['/api/v1/PaidOrders'].post).toBeUndefined();
        expect(res.body.paths['/api/v1/EventLog'].post).toBeUndefined();
        expect(res.body.components.schemas.Order.properties.Paid.type).toBe('boolean');
        // Every route of api-contract section 2 is documented: the relation routes and groupby/{column} too.
        const methods = (path: string) => Object.keys(res.body.paths[path] ?? {}).sort();
        expect(methods('/api/v1/Order/groupby/{column}')).toEqual(['get']);
        expect(methods('/api/v1/CustomerGroup/has/Order')).toEqual(['get']);
        expect(methods('/api/v1/Order/belongs/CustomerGroup')).toEqual(['get']);
        expect(methods('/api/v1/Employee/has/Employee')).toEqual(['get']);
        expect(methods('/api/v1/Employee/belongs/Employee')).toEqual(['get']);
        expect(methods('/api/v1/CustomerGroup/{id}/Order')).toEqual(['get', 'post']);
        expect(methods('/api/v1/CustomerGroup/{id}/Order/{childId}')).toEqual(['delete', 'get', 'put']);
        expect(res.body.paths['/api/v1/CustomerGroup/{id}/Order'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrderInput' });
        // Every read that takes view= says so.
        const takesView = (path: string) => res.body.paths[path].get.parameters.some((p: { name: string }) => p.name === 'view');
        for (const path of ['/api/v1/Order', '/api/v1/Order/findOne', '/api/v1/Order/count', '/api/v1/Order/{id}', '/api/v1/Order/groupby', '/api/v1/Order/aggregate', '/api/v1/Order/distinct', '/api/v1/Order/distribute', '/api/v1/Order/export/csv']) expect(takesView(path)).toBe(true);
        // ... and each documented read answers through the router (no 'route not found').
        for (const path of ['/api/v1/Order/groupby/Paid', '/api/v1/CustomerGroup/has/Order', '/api/v1/Order/belongs/CustomerGroup', '/api/v1/CustomerGroup/1/Order/1']) {
          expect((await t.request('GET', `/nc/${ids[kind]}${path}`, { headers: { 'xc-auth': token } })).status).toBe(200);
        }
      }
    }
  });
});

test('projectApiInfo, the Swagger UI page and its embedded assets', async () => {
  const { body } = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Docs', projectType: 'graphql' } });
  const info = await t.request('GET', `/nc/${body.id}/projectApiInfo`, { headers: { 'xc-auth': token } });
  expect(info.body).toEqual({ info: { db: { apiType: 'graphql', swaggerUrl: `/nc/${body.id}/docs?dbAlias=db`, gqlApiUrl: `/nc/${body.id}/v1/graphql`, restApiUrl: `/nc/${body.id}/api/v1` } } });
  // The access type's endpoint comes first (it came after the Swagger page's, REST or GraphQL alike).
  expect(Object.keys(info.body.info.db)).toEqual(['apiType', 'gqlApiUrl', 'restApiUrl', 'swaggerUrl']);
  const rest = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Docs REST', projectType: 'rest' } })).body.id as string;
  expect(Object.keys((await t.request('GET', `/nc/${rest}/projectApiInfo`, { headers: { 'xc-auth': token } })).body.info.db)).toEqual(['apiType', 'restApiUrl', 'swaggerUrl', 'gqlApiUrl']);
  expect((await t.request('GET', `/nc/${body.id}/projectApiInfo`)).status).toBe(401);
  const page = await t.request('GET', `/nc/${body.id}/docs`);
  expect(page.text).toContain('SwaggerUIBundle');
  const js = await t.app.handle(new Request('http://localhost/_swagger/swagger-ui-bundle.js'));
  expect(js.status).toBe(200);
  expect((await js.text()).length).toBeGreaterThan(100_000);
  expect((await t.app.handle(new Request('http://localhost/_swagger/swagger-ui.css'))).status).toBe(200);
});
