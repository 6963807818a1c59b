/**
 * A booted server loads only what every request may need: the SQL Server driver (mssql, tedious and
 * its Azure sign-in modules), the XLSX reader (exceljs), the gRPC client (grpc-js, protobufjs) and the
 * mailer (nodemailer) load with their first use. Checked in a process of its own, whose module cache
 * holds nothing but what booting loaded.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../..');
const LAZY = ['mssql', 'tedious', '@azure/identity', 'exceljs', '@grpc/grpc-js', 'protobufjs', 'nodemailer'];

const script = (dataDir: string) => `
const { createApp } = await import(${JSON.stringify(join(ROOT, 'src/app.ts'))});
const { boot } = await import(${JSON.stringify(join(ROOT, 'src/boot/boot.ts'))});
const { testConfig } = await import(${JSON.stringify(join(ROOT, 'src/config/config.ts'))});
const { memoryLogger } = await import(${JSON.stringify(join(ROOT, 'src/lib/log.ts'))});
const config = testConfig({ dataDir: ${JSON.stringify(dataDir)}, jwtSecret: 'boot-modules-secret-0123456789abcdef' });
const app = createApp(config, { ...(await boot(config)), log: memoryLogger() });
const res = await app.handle(new Request('http://localhost/api/health'));
const packages = [...new Set(Object.keys(require.cache).filter((p) => p.includes('/node_modules/')).map((p) => {
  const rest = p.split('/node_modules/').pop();
  const parts = rest.split('/');
  return parts[0].startsWith('@') ? parts[0] + '/' + parts[1] : parts[0];
}))];
console.log(JSON.stringify({ status: res.status, packages }));
await app.close();
process.exit(0);
`;

describe('booting', () => {
  test('leaves the SQL Server driver, the XLSX reader, the gRPC client and the mailer unloaded', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-boot-modules-'));
    try {
      const proc = Bun.spawn(['bun', '-e', script(dataDir)], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(err.includes('error:') ? err : '').toBe('');
      expect(code).toBe(0);
      const { status, packages } = JSON.parse(out.trim().split('\n').pop()!) as { status: number; packages: string[] };
      expect(status).toBe(200);
      // The boot did load packages (the check would pass vacuously otherwise).
      expect(packages).toContain('elysia');
      expect(packages.filter((p) => LAZY.includes(p))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
