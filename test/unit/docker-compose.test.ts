/**
 * docker-compose.yml (Docker does not run here): parsed as YAML and checked for what scale-out
 * needs: two Tablo instances built from the Dockerfile on one PostgreSQL NC_DB whose credentials
 * match the postgres service, a shared data volume, start order, and one published port on a load
 * balancer whose Caddyfile sends to both instances.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/config';
import { isTrustedProxy } from '../../src/http/client-address';

const ROOT = join(import.meta.dir, '../..');
const compose = Bun.YAML.parse(await Bun.file(join(ROOT, 'docker-compose.yml')).text()) as any;
const caddyfile = await Bun.file(join(ROOT, 'deploy/Caddyfile')).text();
const dockerfile = await Bun.file(join(ROOT, 'Dockerfile')).text();

/** `${NAME:-default}` as Compose would expand it with NAME unset. */
const expand = (v: string) => v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('docker-compose.yml', () => {
  const s = compose.services;
  const instances = ['tablo1', 'tablo2'];

  test('two Tablo instances built from the Dockerfile, PostgreSQL and a load balancer', () => {
    expect(Object.keys(s).sort()).toEqual(['lb', 'postgres', 'tablo1', 'tablo2']);
    for (const name of instances) {
      expect(s[name].build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
      expect(s[name].ports).toBeUndefined();
    }
    expect(s.postgres.image).toMatch(/^postgres:/);
    expect(s.postgres.healthcheck.test.join(' ')).toContain('pg_isready');
  });

  test('both instances use one NC_DB that matches the postgres service, one data volume, one secret source', () => {
    const pg = s.postgres.environment;
    const urls = instances.map((n) => new URL(expand(s[n].environment.NC_DB)));
    for (const url of urls) {
      expect(url.protocol).toBe('postgres:');
      expect(url.hostname).toBe('postgres');
      expect(url.port).toBe('5432');
      expect(decodeURIComponent(url.username)).toBe(pg.POSTGRES_USER);
      expect(decodeURIComponent(url.password)).toBe(expand(pg.POSTGRES_PASSWORD));
      expect(url.pathname).toBe(`/${pg.POSTGRES_DB}`);
    }
    expect(instances.map((n) => s[n].volumes)).toEqual([['tablo-data:/data'], ['tablo-data:/data']]);
    expect(Object.keys(compose.volumes)).toContain('tablo-data');
    for (const n of instances) {
      expect(s[n].environment.NC_DATA_DIR).toBe('/data');
      expect(s[n].environment.PORT).toBe('8080');
      expect(s[n].environment.NC_AUTH_JWT_SECRET).toContain('NC_AUTH_JWT_SECRET');
    }
    expect(dockerfile).toContain('EXPOSE 8080');
    expect(dockerfile).toContain('/api/health');
  });

  test('start order: PostgreSQL healthy, then the first instance, then the second', () => {
    expect(s.tablo1.depends_on.postgres.condition).toBe('service_healthy');
    expect(s.tablo2.depends_on.tablo1.condition).toBe('service_healthy');
    expect(s.lb.depends_on).toEqual(expect.arrayContaining(['tablo1', 'tablo2']));
  });

  test('one published port on Caddy, which balances to both instances with health checks', () => {
    expect(s.lb.image).toMatch(/^caddy:/);
    expect(s.lb.ports.map(expand)).toEqual(['8080:8080']);
    expect(s.lb.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddyfile).toMatch(/^:8080 \{/m);
    expect(caddyfile).toMatch(/reverse_proxy tablo1:8080 tablo2:8080 \{/);
    expect(caddyfile).toContain('health_uri /api/health');
    expect(caddyfile).toContain('lb_policy round_robin');
  });

  test('the instances believe the X-Forwarded-For of Caddy, at any address Docker gives the network', () => {
    for (const n of instances) {
      const { trustedProxies } = parseConfig({ trustedProxies: expand(s[n].environment.NC_TRUSTED_PROXIES ?? '').split(',') });
      // Docker's default address pools: 172.17-31.x.x per network, then 192.168.x.x in /20 blocks.
      for (const caddy of ['172.17.0.3', '172.18.0.5', '172.31.255.2', '192.168.16.4', '192.168.240.9']) expect(isTrustedProxy(caddy, trustedProxies), caddy).toBe(true);
      for (const outside of ['203.0.113.7', '8.8.8.8']) expect(isTrustedProxy(outside, trustedProxies), outside).toBe(false);
    }
  });

  test('without NC_PUBLIC_URL the public URL is left unset (links follow the address used), not pinned to localhost:8080', () => {
    for (const n of instances) {
      expect(s[n].environment.NC_PUBLIC_URL).toContain('NC_PUBLIC_URL');
      expect(parseConfig({ publicUrl: expand(s[n].environment.NC_PUBLIC_URL) }).publicUrl).toBeUndefined();
    }
  });
});
