import { describe, expect, test } from 'bun:test';
import { parseConfig, ConfigError, authTypeOf } from '../../src/config/config';

describe('config', () => {
  test('defaults start Tablo on 8080 with ./data', () => {
    const c = parseConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe('./data');
    expect(c.queryLimitMax).toBe(1000);
    expect(c.countTimeoutMs).toBe(10000);
    expect(authTypeOf(c)).toBe('jwt');
  });
  test('a bad value names the setting in one line', () => {
    expect(() => parseConfig({ port: 'abc' })).toThrow(ConfigError);
    try {
      parseConfig({ port: '70000' });
    } catch (e) {
      expect((e as Error).message).toStartWith('Invalid setting PORT (--port):');
      expect((e as Error).message).not.toContain('\n');
    }
    expect(() => parseConfig({ allowSignup: 'maybe' })).toThrow(/NC_ALLOW_SIGNUP/);
    expect(() => parseConfig({ publicUrl: 'not a url' })).toThrow(/NC_PUBLIC_URL/);
  });
  test('an admin secret switches to masterKey', () => {
    expect(authTypeOf(parseConfig({ adminSecret: 'supersecret' }))).toBe('masterKey');
  });
});
