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
    // A number says what it expects and what it got, in words (not "expected number, received NaN").
    expect(() => parseConfig({ port: 'abc' })).toThrow("Invalid setting PORT (--port): expected a whole number, got 'abc'");
    expect(() => parseConfig({ port: '70000' })).toThrow('Invalid setting PORT (--port): expected a whole number from 0 to 65535, got 70000');
    expect(() => parseConfig({ queryLimitMax: '2.5' })).toThrow("Invalid setting NC_DB_QUERY_LIMIT_MAX (--query-limit-max): expected a whole number, got '2.5'");
    expect(() => parseConfig({ hookPollMs: '0' })).toThrow('Invalid setting NC_HOOK_POLL_MS (--hook-poll-ms): expected a whole number from 10 to 60000, got 0');
    expect(parseConfig({ port: ' 8081 ', queryLimitMax: 50 })).toMatchObject({ port: 8081, queryLimitMax: 50 });
    expect(() => parseConfig({ publicUrl: 'not a url' })).toThrow(/NC_PUBLIC_URL/);
    // Words and minutes too ("Invalid option: expected one of ...", "expected number, received NaN" before).
    expect(() => parseConfig({ authType: 'foo' })).toThrow("Invalid setting NC_AUTH_TYPE (--auth-type): expected none, jwt or masterKey, got 'foo'");
    expect(() => parseConfig({ env: 'staging' })).toThrow("Invalid setting NODE_ENV (--env): expected production, development or test, got 'staging'");
    expect(() => parseConfig({ updateMode: 'later' })).toThrow("Invalid setting NC_UPDATE_MODE (--update-mode): expected auto, binary or notice, got 'later'");
    for (const bad of ['abc', '0', '-5', '99999']) {
      expect(() => parseConfig({ terminalIdleMin: bad }), bad).toThrow(`Invalid setting NC_TERMINAL_IDLE_MIN (--terminal-idle-min): expected a number of minutes above 0 and up to 10080, got '${bad}'`);
    }
    expect(parseConfig({ terminalIdleMin: '0.5', authType: 'none', env: 'development', updateMode: 'notice' })).toMatchObject({ terminalIdleMin: 0.5, authType: 'none', env: 'development', updateMode: 'notice' });
    // NC_DB of another kind is a bad setting like the others (it stopped Tablo only after the data directory was made, exit 1).
    expect(() => parseConfig({ metaDb: 'mysql://root@127.0.0.1/tablo' })).toThrow('Invalid setting NC_DB (--meta-db): only postgres://user:password@host:5432/database URLs are supported (unset it for the embedded SQLite store)');
    expect(parseConfig({ metaDb: 'postgresql://tablo:secret@db:5432/tablo' }).metaDb).toBe('postgresql://tablo:secret@db:5432/tablo');
  });
  test('URL settings take http:// and https:// addresses only, not host:port without a scheme', () => {
    for (const bad of ['localhost:8080', 'tablo.example.com:443', 'ftp://tablo.example.com', 'mailto:admin@example.com']) {
      expect(() => parseConfig({ publicUrl: bad }), bad).toThrow(
        'Invalid setting NC_PUBLIC_URL (--public-url): expected an http:// or https:// address, such as https://tablo.example.com',
      );
      expect(() => parseConfig({ updateFeed: bad }), bad).toThrow(/NC_UPDATE_FEED/);
    }
    for (const good of ['http://localhost:8080', 'https://tablo.example.com/', 'http://10.0.0.5:8080', 'https://[::1]:8443']) expect(parseConfig({ publicUrl: good }).publicUrl).toBe(good);
  });
  test('an admin secret switches to masterKey', () => {
    expect(authTypeOf(parseConfig({ adminSecret: 'supersecret' }))).toBe('masterKey');
    // Asked for without a key, the mode would take no master key at all.
    expect(() => parseConfig({ authType: 'masterKey' })).toThrow('Invalid setting NC_AUTH_TYPE (--auth-type): masterKey needs the master key in NC_AUTH_ADMIN_SECRET (--admin-secret)');
    expect(authTypeOf(parseConfig({ authType: 'masterKey', adminSecret: 'supersecret' }))).toBe('masterKey');
  });
  test('sign-in providers need their client id and secret together; endpoints default to the real ones', () => {
    expect(() => parseConfig({ githubClientId: 'id' })).toThrow('Sign-in with GitHub needs both NC_GITHUB_CLIENT_ID and NC_GITHUB_CLIENT_SECRET');
    expect(() => parseConfig({ googleClientSecret: 'secret' })).toThrow(/NC_GOOGLE_CLIENT_ID/);
    expect(() => parseConfig({ oidcIssuer: 'https://id.example.com' })).toThrow(/NC_OIDC_CLIENT_ID/);
    expect(() => parseConfig({ oidcIssuer: 'not a url', oidcClientId: 'a', oidcClientSecret: 'b' })).toThrow(/NC_OIDC_ISSUER/);
    const c = parseConfig({ githubClientId: 'id', githubClientSecret: 'secret' });
    expect(c).toMatchObject({
      googleIssuer: 'https://accounts.google.com',
      githubAuthorizeUrl: 'https://github.com/login/oauth/authorize',
      githubTokenUrl: 'https://github.com/login/oauth/access_token',
      githubApiUrl: 'https://api.github.com',
      oidcName: 'OpenID Connect',
    });
  });
  test('links to stored files live 5 minutes unless NC_ATTACHMENT_LINK_SECONDS says otherwise (at least a second)', () => {
    expect(parseConfig({}).attachmentLinkSeconds).toBe(300);
    expect(parseConfig({ attachmentLinkSeconds: '3' }).attachmentLinkSeconds).toBe(3);
    expect(() => parseConfig({ attachmentLinkSeconds: '0' })).toThrow(/NC_ATTACHMENT_LINK_SECONDS/);
  });
});
