/**
 * The pure parts of the security fixes: token role caps, NC_CONNECT_ALLOW patterns, trusted proxy
 * ranges, JSON depth, GraphQL document sizing, MySQL literals, log masking, CSP hashes and the
 * per-account sign-in back-off.
 */
import { describe, expect, test } from 'bun:test';
import { parse } from 'graphql';
import { cappedRole, highestRole } from '../../src/http/token-actor';
import { connectTargetAllowed } from '../../src/schema/connection-input';
import { clientAddress, isTrustedProxy } from '../../src/http/client-address';
import { jsonTooDeep } from '../../src/http/body';
import { documentBudgetError } from '../../src/api/graphql/limits';
import { mysqlString } from '../../src/sql/mysql/literal';
import { maskedPath } from '../../src/http/log-mask';
import { contentSecurityPolicy, inlineScriptHashes } from '../../src/http/security-headers';
import { SigninGuard } from '../../src/http/signin-guard';
import { parseConfig, testConfig } from '../../src/config/config';

describe('API token roles', () => {
  test("a token acts with the lower of its role and its maker's best role", () => {
    expect(highestRole(['viewer', 'editor'])).toBe('editor');
    expect(cappedRole('owner', ['viewer'])).toBe('viewer');
    expect(cappedRole('viewer', ['owner'])).toBe('viewer');
    expect(cappedRole('editor', ['creator', 'viewer'])).toBe('editor');
    expect(cappedRole('editor', [])).toBeUndefined();
    expect(cappedRole('editor', ['guest'])).toBeUndefined();
  });
});

describe('NC_CONNECT_ALLOW and NC_TRUSTED_PROXIES', () => {
  test('host:port patterns with * wildcards; no pattern allows everything', () => {
    expect(connectTargetAllowed('db.internal', 5432, [])).toBe(true);
    expect(connectTargetAllowed('db.internal', 5432, ['db.internal:5432'])).toBe(true);
    expect(connectTargetAllowed('DB.Internal', 5432, ['db.internal:*'])).toBe(true);
    expect(connectTargetAllowed('db.internal', 3306, ['db.internal:5432'])).toBe(false);
    expect(connectTargetAllowed('10.0.0.7', 3306, ['10.0.0.*:*'])).toBe(true);
    expect(connectTargetAllowed('10.0.1.7', 3306, ['10.0.0.*:*'])).toBe(false);
    // A dot is a dot, not any character.
    expect(connectTargetAllowed('dbxinternal', 5432, ['db.internal:5432'])).toBe(false);
    expect(() => parseConfig({ connectAllow: ['no-port'] })).toThrow(/NC_CONNECT_ALLOW/);
    expect(() => parseConfig({ trustedProxies: ['not an ip'] })).toThrow(/NC_TRUSTED_PROXIES/);
    // Entries that look like addresses but match nothing are refused instead of silently ignored.
    for (const bad of ['abc', 'cafe', '10.0.0.0/40', '10.0.0/8', 'fd00::/8', '::::', '10.0.0.1/8/8']) {
      expect(() => parseConfig({ trustedProxies: [bad] }), bad).toThrow(`Invalid setting NC_TRUSTED_PROXIES (--trusted-proxies): '${bad}' is not an IP address or an IPv4 CIDR range such as 10.0.0.0/8`);
    }
    expect(parseConfig({ trustedProxies: ['10.0.0.0/8', '192.168.1.5', '::1', 'fd00::7'] }).trustedProxies).toHaveLength(4);
  });
  test('trusted proxies by address or IPv4 range; X-Forwarded-For only from them', () => {
    expect(isTrustedProxy('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isTrustedProxy('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isTrustedProxy('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
    expect(isTrustedProxy('192.168.1.5', ['192.168.1.5'])).toBe(true);
    const request = new Request('http://x/', { headers: { 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.0.0.2' } });
    const server = { requestIP: () => ({ address: '10.0.0.1' }) };
    expect(clientAddress(testConfig(), request, server)).toBe('10.0.0.1');
    expect(clientAddress(testConfig({ trustedProxies: ['10.0.0.0/8'] }), request, server)).toBe('203.0.113.9');
  });
});

describe('bodies and documents', () => {
  test('JSON depth is counted outside strings, in one pass', () => {
    expect(jsonTooDeep('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonTooDeep('{"a":[[[1]]]}', 3)).toBe(true);
    expect(jsonTooDeep('{"a":"[[[[[[[[\\"[[["}', 2)).toBe(false);
    expect(jsonTooDeep('['.repeat(1_000_000), 64)).toBe(true);
  });
  test('a doubling fragment document is sized without expanding it', () => {
    const frags = ['fragment F0 on T { a b }'];
    for (let i = 1; i <= 200; i++) frags.push(`fragment F${i} on T { ...F${i - 1} ...F${i - 1} }`);
    const doc = parse(`{ list { ...F200 } } ${frags.join(' ')}`);
    // 2^200 fields once expanded: only a sizing that never expands can answer at all.
    const err = documentBudgetError(doc);
    expect(err?.extensions).toMatchObject({ code: 'BAD_REQUEST', limit: 'cost' });
    expect(documentBudgetError(parse('{ list { ...F } } fragment F on T { a ...G } fragment G on T { ...F }'))?.message).toContain('spreads itself');
    expect(documentBudgetError(parse('{ list { a b c { d } } }'))).toBeNull();
    // Introspection's deep type references do not count towards the depth limit.
    expect(documentBudgetError(parse('{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }'))).toBeNull();
  });
});

describe('literals, logs and pages', () => {
  test('MySQL string literals double backslashes and quotes', () => {
    expect(mysqlString("x\\', ADD COLUMN pwned INT -- ")).toBe("'x\\\\'', ADD COLUMN pwned INT -- '");
    expect(mysqlString('plain')).toBe("'plain'");
  });
  test('reset and invite tokens are masked in logged paths', () => {
    expect(maskedPath('/auth/password/reset/abc-123')).toBe('/auth/password/reset/***');
    expect(maskedPath('/auth/token/validate/abc')).toBe('/auth/token/validate/***');
    expect(maskedPath('/nc/p/api/v1/Table/1')).toBe('/nc/p/api/v1/Table/1');
  });
  test('inline scripts are allowed by their hash only', () => {
    const html = '<script src="/a.js"></script><script>run()</script>';
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(1);
    expect(contentSecurityPolicy(hashes)).toContain(`script-src 'self' ${hashes[0]}`);
    expect(contentSecurityPolicy()).toContain("frame-ancestors 'none'");
  });
});

describe('sign-in back-off', () => {
  test('five free failures, then waits that double; a known client is never slowed', () => {
    const guard = new SigninGuard('secret-secret-secret');
    for (let i = 0; i < 5; i++) {
      guard.check('a@example.com', false);
      guard.failed('a@example.com');
    }
    guard.check('a@example.com', false);
    guard.failed('a@example.com');
    expect(() => guard.check('a@example.com', false)).toThrow(/reset your password/);
    expect(() => guard.check('A@example.com', false)).toThrow();
    expect(() => guard.check('a@example.com', true)).not.toThrow();
    expect(() => guard.check('b@example.com', false)).not.toThrow();
    const cookie = guard.succeeded('a@example.com', '10.0.0.1', null, false).split(';')[0]!.split('=')[1]!;
    expect(guard.isKnown('a@example.com', '192.0.2.1', cookie)).toBe(true);
    expect(guard.isKnown('b@example.com', '192.0.2.1', cookie)).toBe(false);
    expect(guard.isKnown('a@example.com', '10.0.0.1', null)).toBe(true);
    expect(() => guard.check('a@example.com', false)).not.toThrow();
  });
});
