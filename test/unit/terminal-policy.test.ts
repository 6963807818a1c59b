/** Terminal policy (loopback default, NC_TERMINAL, NC_DISABLE_TERMINAL wins) and the shell's cleaned environment. */
import { describe, expect, test } from 'bun:test';
import { parseConfig } from '../../src/config/config';
import { isLoopback, terminalPolicy } from '../../src/terminal/policy';
import { isHiddenVariable, loginShell, terminalEnv } from '../../src/terminal/env';

describe('terminal policy', () => {
  test('loopback addresses', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.1.1', 'LOCALHOST']) expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '128.0.0.1', '127.example.com']) expect(isLoopback(h)).toBe(false);
  });

  test('on by default on loopback only; NC_TERMINAL=1 turns it on anywhere; NC_DISABLE_TERMINAL always wins', () => {
    expect(terminalPolicy(parseConfig({})).enabled).toBe(false);
    expect(terminalPolicy(parseConfig({ host: '127.0.0.1' })).enabled).toBe(true);
    expect(terminalPolicy(parseConfig({ host: '0.0.0.0', terminal: '1' })).enabled).toBe(true);
    expect(terminalPolicy(parseConfig({ host: '127.0.0.1', terminal: '0' })).enabled).toBe(false);
    const off = terminalPolicy(parseConfig({ host: '127.0.0.1', terminal: 'true', disableTerminal: 'true' }));
    expect(off).toEqual({ enabled: false, reason: 'The terminal is turned off by NC_DISABLE_TERMINAL (--disable-terminal).', howToEnable: 'Start Tablo without NC_DISABLE_TERMINAL and --disable-terminal.' });
    expect(terminalPolicy(parseConfig({})).howToEnable).toContain('NC_TERMINAL=1');
  });

  test('NC_TERMINAL_IDLE_MIN takes positive minutes (fractions too) and names itself when wrong', () => {
    expect(parseConfig({}).terminalIdleMin).toBe(30);
    expect(parseConfig({ terminalIdleMin: '0.5' }).terminalIdleMin).toBe(0.5);
    expect(() => parseConfig({ terminalIdleMin: '0' })).toThrow(/NC_TERMINAL_IDLE_MIN/);
    expect(() => parseConfig({ terminal: 'maybe' })).toThrow(/NC_TERMINAL \(--terminal\)/);
  });
});

describe('terminal environment', () => {
  test('Tablo settings and secret-like variables never reach the shell', () => {
    for (const name of ['NC_AUTH_JWT_SECRET', 'NC_DB', 'NC_TERMINAL', 'TABLO_TEST_DB_SUFFIX', 'DATABASE_URL', 'PORT', 'HOST', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'PGPASSWORD', 'MYSQL_PWD', 'OPENAI_API_KEY', 'SSH_AUTH_SOCK', 'PRIVATE_KEY', 'STRIPE_KEY', 'REDIS_URL', 'SENTRY_DSN', 'DB_PASS', 'GOOGLE_APPLICATION_CREDENTIALS'])
      expect([name, isHiddenVariable(name)]).toEqual([name, true]);
    for (const name of ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TERM_PROGRAM', 'EDITOR', 'TZ', 'SHELL', 'KEYBOARD_LAYOUT'])
      expect([name, isHiddenVariable(name)]).toEqual([name, false]);
  });

  test('the environment holds the cleaned host variables, the terminal type and the working directory', () => {
    const env = terminalEnv({ PATH: '/usr/bin', NC_AUTH_ADMIN_SECRET: 'x', EDITOR: 'vi', TERM: 'dumb' }, '/data/workspace', '/bin/sh');
    expect(env).toEqual({ PATH: '/usr/bin', EDITOR: 'vi', TERM: 'xterm-256color', COLORTERM: 'truecolor', SHELL: '/bin/sh', PWD: '/data/workspace', HOME: expect.any(String) });
    expect(terminalEnv({}, '/w', '/bin/sh').PATH).toContain('/usr/bin');
  });

  test('the login shell is an existing absolute path', () => {
    const shell = loginShell({ SHELL: '/no/such/shell' });
    expect(shell).toStartWith('/');
    expect(Bun.file(shell).size).toBeGreaterThan(0);
  });
});
