/** The pure decisions behind the spec's routes: project forms, missing database config, /start, /datatable's right-clicks, table links. */
import { describe, expect, test } from 'bun:test';
import { configMissing, projectFormOf, rightClickCounter, startTarget, tableLink } from '../../web/src/app/route-targets';

describe('route targets', () => {
  test('projectFormOf: /project and /project/0 connect an external database, xcdb, name and index.js make an embedded project, anything else edits that project', () => {
    expect(projectFormOf(undefined)).toEqual({ kind: 'external' });
    expect(projectFormOf('0')).toEqual({ kind: 'external' });
    expect(projectFormOf('xcdb')).toEqual({ kind: 'embedded' });
    expect(projectFormOf('name')).toEqual({ kind: 'embedded' });
    expect(projectFormOf('index.js')).toEqual({ kind: 'embedded' });
    expect(projectFormOf('p_abc123')).toEqual({ kind: 'edit', projectId: 'p_abc123' });
  });

  test("configMissing: true when the working environment has no 'db' database", () => {
    const envs = (dbs: Record<string, string[]>, workingEnv = 'dev') => ({ workingEnv, envs: Object.fromEntries(Object.entries(dbs).map(([e, aliases]) => [e, { dbs: aliases.map((dbAlias) => ({ dbAlias })) }])) });
    expect(configMissing(envs({ dev: ['db'] }))).toBe(false);
    expect(configMissing(envs({ dev: ['db2'] }))).toBe(true);
    expect(configMissing(envs({ prod: ['db'] }))).toBe(true);
    expect(configMissing(envs({ dev: ['db2'], prod: ['db'] }, 'prod'))).toBe(false);
  });

  test('startTarget: sign-up while nobody has signed up (jwt), else the index', () => {
    expect(startTarget({ authType: 'jwt', firstUser: true })).toBe('/user/authentication/signup');
    expect(startTarget({ authType: 'jwt', firstUser: false })).toBe('/');
    expect(startTarget({ authType: 'masterKey', firstUser: true })).toBe('/');
    expect(startTarget(null)).toBe('/');
  });

  test('rightClickCounter: the third right-click within the window opens, a slow one starts again', () => {
    const c = rightClickCounter(3, 1000);
    expect([c.click(0), c.click(400), c.click(800)]).toEqual([false, false, true]);
    // After opening, counting starts afresh.
    expect([c.click(900), c.click(1000)]).toEqual([false, false]);
    // Too slow: 2.5 s after the last one counts as the first again.
    expect([c.click(3500), c.click(3600), c.click(3700)]).toEqual([false, false, true]);
  });

  test("tableLink: the project page's query for a table tab", () => {
    expect(tableLink('p1', 'Order Items')).toBe('/nc/p1?name=Order+Items&dbalias=db&type=table');
  });
});
