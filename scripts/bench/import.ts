/**
 * Import and export benchmark (not a test): a 1,000,000-row CSV (6 columns: text, whole number,
 * decimal, date, yes/no, e-mail) imported into a new table of each engine through the dashboard
 * (upload, then importStart, polled until done), then exported as CSV and XLSX over REST. Prints
 * rows per second and the server's peak memory (VmHWM of the server process, reset before each
 * phase) for each phase. The server runs as its own process (`bun src/main.ts`).
 *
 *   bun scripts/bench/import.ts [--engine sqlite|pg|mysql] [--rows 1000000]
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import mysql from 'mysql2/promise';

const { values } = parseArgs({ options: { engine: { type: 'string' }, rows: { type: 'string', default: '1000000' } } });
const ROWS = Number(values.rows);
const ROOT = join(import.meta.dir, '../..');
const WORK = '/tmp/tablo-bench-import';
/** A port nobody listens on now (other servers may run on this machine). */
function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}
const DB = 'tablo_bench_import';
mkdirSync(WORK, { recursive: true });

/** Writes the CSV once (about 75 MB for a million rows). */
async function makeCsv(): Promise<string> {
  const path = join(WORK, `rows-${ROWS}.csv`);
  if (existsSync(path)) return path;
  const out = createWriteStream(path);
  out.write('Title,Quantity,Price,Day,Paid,Contact\n');
  for (let i = 0; i < ROWS; i += 10_000) {
    let chunk = '';
    for (let j = i; j < Math.min(ROWS, i + 10_000); j++) {
      chunk += `"Order ${j}, batch ${j % 97}",${j % 1000},${(j % 10000) / 100},2024-${String((j % 12) + 1).padStart(2, '0')}-${String((j % 28) + 1).padStart(2, '0')},${j % 2 ? 'yes' : 'no'},buyer${j % 5000}@example.com\n`;
    }
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return path;
}

async function freshDatabase(engine: string): Promise<unknown> {
  if (engine === 'pg') {
    const admin = postgres({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${DB}`);
    await admin.end();
    return { client: 'pg', connection: { host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: DB } };
  }
  if (engine === 'mysql') {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    await c.query(`DROP DATABASE IF EXISTS ${DB}`);
    await c.query(`CREATE DATABASE ${DB}`);
    await c.end();
    return { client: 'mysql', connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB } };
  }
  return undefined; // a new embedded SQLite database
}

/** Peak resident memory of a process in MB (VmHWM); `reset` starts a new peak. */
function peakMb(pid: number, reset = false): number {
  if (reset) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

async function runEngine(engine: string, csv: string) {
  const dataDir = join(WORK, `data-${engine}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const PORT = freePort();
  const server = Bun.spawn(['bun', join(ROOT, 'src/main.ts'), '--port', String(PORT), '--data-dir', dataDir, '--log-requests', 'false'], { stdout: 'ignore', stderr: 'inherit' });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    for (let i = 0; i < 600 && !(await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false)); i++) await Bun.sleep(100);
    const call = async (body: unknown, token?: string) => {
      const res = await fetch(`${base}/dashboard`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body) });
      const json = (await res.json()) as any;
      if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const signup = await fetch(`${base}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark123' }) });
    const token = ((await signup.json()) as any).token as string;
    const db = await freshDatabase(engine);
    const project = await call({ api: 'projectCreateByWeb', args: { title: `Import ${engine}`, ...(db ? { db } : {}) } }, token);
    const scope = { project_id: project.id, dbAlias: 'db' };

    const idle = peakMb(server.pid, true);
    const t0 = performance.now();
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', ...scope, args: {} }));
    form.set('file', Bun.file(csv), 'orders.csv');
    const up = (await (await fetch(`${base}/dashboard?q=sqlOp_importUpload`, { method: 'POST', headers: { 'xc-auth': token }, body: form })).json()) as any;
    if (!up.uploadId) throw new Error(JSON.stringify(up));
    const uploaded = performance.now();
    let job = await call({ api: 'importStart', ...scope, args: { uploadId: up.uploadId, create: { tn: 'orders' } } }, token);
    while (job.status === 'running') {
      await Bun.sleep(250);
      job = await call({ api: 'importStatus', ...scope, args: { jobId: job.id } }, token);
    }
    const imported = performance.now();
    if (job.status !== 'done' || job.rowsImported !== ROWS) throw new Error(`import ended ${job.status}: ${job.rowsImported} rows, ${job.message ?? ''} ${JSON.stringify(job.problems?.slice(0, 3))}`);
    const importPeak = peakMb(server.pid);

    const exportRun = async (format: 'csv' | 'xlsx') => {
      peakMb(server.pid, true);
      const t = performance.now();
      const res = await fetch(`${base}/nc/${project.id}/api/v1/Orders/export/${format}`, { headers: { 'xc-auth': token } });
      if (!res.ok) throw new Error(`${format} export: ${res.status} ${await res.text()}`);
      let bytes = 0;
      for await (const chunk of res.body!) bytes += chunk.length;
      const s = (performance.now() - t) / 1000;
      return { s, bytes, peak: peakMb(server.pid) };
    };
    const csvOut = await exportRun('csv');
    const xlsxOut = await exportRun('xlsx');
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    const rate = (s: number) => Math.round(ROWS / s).toLocaleString('en-US');
    console.log(
      [
        `| ${engine} | import (upload ${((uploaded - t0) / 1000).toFixed(1)} s + rows ${((imported - uploaded) / 1000).toFixed(1)} s) | ${rate((imported - t0) / 1000)} | ${importPeak} (idle ${idle}) | ${mb(statSync(csv).size)} MB in |`,
        `| ${engine} | export CSV (${csvOut.s.toFixed(1)} s) | ${rate(csvOut.s)} | ${csvOut.peak} | ${mb(csvOut.bytes)} MB out |`,
        `| ${engine} | export XLSX (${xlsxOut.s.toFixed(1)} s) | ${rate(xlsxOut.s)} | ${xlsxOut.peak} | ${mb(xlsxOut.bytes)} MB out |`,
      ].join('\n'),
    );
  } finally {
    server.kill();
    await server.exited;
  }
}

const csv = await makeCsv();
console.log(`${ROWS.toLocaleString('en-US')} rows, ${(statSync(csv).size / 1024 / 1024).toFixed(1)} MB of CSV`);
console.log('| engine | phase | rows/s | server peak MB | data |\n| --- | --- | --- | --- | --- |');
for (const engine of values.engine ? [values.engine] : ['sqlite', 'pg', 'mysql']) await runEngine(engine, csv);
