/** The API client's request model: variables and their suggestions, enabled switches, curl, history order and cap. */
import { describe, expect, test } from 'bun:test';
import {
  addToHistory, applySuggestion, buildRequest, emptyRequest, headerProblem, keptRequest, missingVariables, requestMissing, restoredRequest, substitute, suggestionQuery, toCurl, variableMap, variableNames, type HistoryEntry,
} from '../../web/src/features/api-client/request-model';
import { prettyJson } from '../../web/src/features/api-client/json-pretty';
import { exampleOf } from '../../web/src/features/api-client/openapi-prefill';
import { columnSchema } from '../../src/api/rest/openapi';
import { coerceValue } from '../../src/data/values';
import type { ColumnModel, ValueKind } from '../../src/sql/model';

const vars = variableMap([
  { name: 'table', value: 'Album', enabled: true },
  { name: 'limit', value: '5', enabled: true },
  { name: 'off', value: 'x', enabled: false },
]);

describe('variables', () => {
  test('names in order without repeats; disabled variables do not exist', () => {
    expect(variableNames('/api/{{table}}?l={{ limit }}&x={{table}}')).toEqual(['table', 'limit']);
    expect(missingVariables('{{table}} {{off}} {{nope}}', vars)).toEqual(['off', 'nope']);
    expect(missingVariables('/plain', vars)).toEqual([]);
  });
  test('substitution fills known names and leaves unknown ones as written', () => {
    expect(substitute('/api/v1/{{table}}?limit={{limit}}&{{nope}}', vars)).toBe('/api/v1/Album?limit=5&{{nope}}');
  });
  test('typing {{ opens the menu with what follows as its filter; a closed pair does not', () => {
    expect(suggestionQuery('/api/{{', 7)).toBe('');
    expect(suggestionQuery('/api/{{ta', 9)).toBe('ta');
    expect(suggestionQuery('/api/{{table}}', 14)).toBeNull();
    expect(suggestionQuery('/api/{', 6)).toBeNull();
    expect(applySuggestion('/api/{{ta/x', 9, 'table')).toEqual({ text: '/api/{{table}}/x', caret: 14 });
    expect(applySuggestion('/api/{{ta}}', 9, 'table')).toEqual({ text: '/api/{{table}}', caret: 14 });
  });
});

describe('what is sent', () => {
  test('only enabled params and headers with a name; variables filled; JSON body typed', () => {
    const built = buildRequest(
      {
        ...emptyRequest(),
        method: 'POST',
        url: '/nc/p1/api/v1/{{table}}',
        params: [{ name: 'limit', value: '{{limit}}', enabled: true }, { name: 'off', value: '1', enabled: false }, { name: ' ', value: 'x', enabled: true }],
        headers: [{ name: 'x-a', value: '1', enabled: true }, { name: 'x-b', value: '2', enabled: false }, { name: '', value: '3', enabled: true }],
        auth: 'tok',
        body: '{"Title":"{{table}}"}',
      },
      vars,
      'http://localhost:8080',
    );
    expect(built).toEqual({
      method: 'POST',
      url: 'http://localhost:8080/nc/p1/api/v1/Album?limit=5',
      headers: { 'x-a': '1', 'xc-auth': 'tok', 'content-type': 'application/json' },
      body: '{"Title":"Album"}',
    });
    expect(toCurl(built)).toBe(`curl -X POST 'http://localhost:8080/nc/p1/api/v1/Album?limit=5' -H 'x-a: 1' -H 'xc-auth: tok' -H 'content-type: application/json' --data-raw '{"Title":"Album"}'`);
  });
  test('the session token goes to this server only; a typed-in auth goes anywhere', () => {
    const to = (url: string, auth: string) => buildRequest({ ...emptyRequest(), url, auth }, vars, 'http://localhost:8080/', 'session-token').headers['xc-auth'];
    expect(to('/nc/p1/api/v1/T', 'session-token')).toBe('session-token');
    expect(to('http://localhost:8080/nc/p1/api/v1/T', 'session-token')).toBe('session-token');
    expect(to('https://api.example/x', 'session-token')).toBeUndefined();
    expect(to('http://localhost:9999/x', 'session-token')).toBeUndefined();
    expect(to('https://api.example/x', 'their-token')).toBe('their-token');
  });
  test('a GET sends no body; missing variables are listed across the request', () => {
    const req = { ...emptyRequest(), url: '/{{nope}}', body: 'ignored', headers: [{ name: 'h', value: '{{gone}}', enabled: true }, { name: 'd', value: '{{skip}}', enabled: false }] };
    expect(buildRequest(req, vars, 'http://x').body).toBeUndefined();
    expect(requestMissing(req, vars)).toEqual(['nope', 'gone']);
    expect(toCurl(buildRequest({ ...emptyRequest(), url: "/it's" }, vars, 'http://x'))).toBe(`curl -X GET 'http://x/it'\\''s'`);
  });

  test('a header no request can carry is named (its name, or its value) before anything is sent', () => {
    expect(headerProblem({ 'xc-token': 'abc', 'x-name': 'naïve\tvalue' })).toBeNull();
    expect(headerProblem({ ok: '1', 'bad name': 'x' })).toEqual({ name: 'bad name', part: 'name' });
    expect(headerProblem({ 'x-é': 'x' })).toEqual({ name: 'x-é', part: 'name' });
    expect(headerProblem({ 'x-city': '北京' })).toEqual({ name: 'x-city', part: 'value' });
    expect(headerProblem({ 'x-two': 'a\r\nx-injected: 1' })).toEqual({ name: 'x-two', part: 'value' });
  });
});

describe('history', () => {
  const entry = (n: number): HistoryEntry => ({ createdAt: `t${n}`, request: { ...emptyRequest(), url: `/${n}` }, response: { status: 200, headers: [], data: '', size: 0, timeTaken: 1 } });
  test('newest first, at most 500', () => {
    let list: HistoryEntry[] = [];
    for (let i = 1; i <= 503; i++) list = addToHistory(list, entry(i));
    expect(list.length).toBe(500);
    expect(list[0]!.request.url).toBe('/503');
    expect(list.at(-1)!.request.url).toBe('/4');
    expect(addToHistory([entry(1)], entry(2), 1).map((e) => e.request.url)).toEqual(['/2']);
  });
});

describe('kept requests (draft and history)', () => {
  test("the session token is not kept: a later session's token is sent instead of the expired one", () => {
    const req = { ...emptyRequest(), url: '/nc/p1/api/v1/T', auth: 'old-session' };
    const kept = keptRequest(req, 'old-session');
    expect(JSON.stringify(kept)).not.toContain('old-session');
    const again = restoredRequest(JSON.parse(JSON.stringify(kept)), 'new-session');
    expect(again.auth).toBe('new-session');
    expect(buildRequest(again, vars, 'http://x').headers['xc-auth']).toBe('new-session');
    expect(again.sessionAuth).toBeUndefined();
  });
  test('a token typed by the user, or an emptied Auth field, is kept as it is', () => {
    expect(restoredRequest(keptRequest({ ...emptyRequest(), auth: 'api-token' }, 'session'), 'later').auth).toBe('api-token');
    expect(restoredRequest(keptRequest({ ...emptyRequest(), auth: '' }, 'session'), 'later').auth).toBe('');
    expect(restoredRequest({ url: '/x' }, 'later')).toEqual({ ...emptyRequest(), url: '/x' });
  });
});

describe('the answer shown', () => {
  test('JSON is indented as written: large numbers and decimals keep their digits', () => {
    const body = '{"Id":9007199254740993,"Big":-9223372036854775808,"Price":1.50,"E":1e400,"S":"a,b:{c}\\"x\\"","A":[],"O":{},"L":[1,{"k":[true,null]}]}';
    const pretty = prettyJson(body);
    expect(pretty).toContain('"Id": 9007199254740993,');
    expect(pretty).toContain('"Big": -9223372036854775808,');
    expect(pretty).toContain('"Price": 1.50,');
    expect(pretty).toContain('"S": "a,b:{c}\\"x\\""');
    // Laid out like JSON.stringify(value, null, 2) for values it keeps exactly.
    const plain = '{ "a": [1, 2, {"b": "x y", "c": []}], "d": {}, "e": "back\\\\", "f": [ ] }';
    expect(prettyJson(plain)).toBe(JSON.stringify(JSON.parse(plain), null, 2));
    expect(prettyJson('"just text"')).toBe('"just text"');
    expect(prettyJson(' 42 ')).toBe('42');
  });
});

describe('requests prefilled from the OpenAPI document', () => {
  test("every column type's example value is one the API accepts as it is (a date and time, a time and any JSON too)", () => {
    const kinds: ValueKind[] = ['string', 'integer', 'bigint', 'decimal', 'float', 'boolean', 'date', 'datetime', 'time', 'json', 'binary'];
    for (const kind of kinds) {
      for (const nullable of [false, true]) {
        const c: ColumnModel = { cn: 'c', _cn: 'C', dt: kind, uidt: 'SpecificDBType', kind, pk: false, ai: false, nullable, default: null };
        const example = exampleOf({ paths: {} }, columnSchema(c) as never);
        expect({ kind, nullable, example: example === null ? 'null' : 'value' }).toEqual({ kind, nullable, example: 'value' });
        expect(() => coerceValue(c, example)).not.toThrow();
      }
    }
  });
});
