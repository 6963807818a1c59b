/**
 * wrk on loopback for the benchmarks: one bounded run (threads, connections, seconds), its requests/s,
 * p50 and p99 in ms and its error count (non-2xx answers, socket errors and timeouts), plus Lua scripts
 * for requests with a method, a body or a changing path.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface WrkOptions {
  connections: number;
  seconds: number;
  headers?: string[];
  script?: string;
}

/** Runs wrk against a 127.0.0.1 URL (anything else is refused) for `seconds`, 2 threads. */
export async function wrk(url: string, o: WrkOptions): Promise<WrkResult> {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`wrk stays on loopback: ${url}`);
  const args = ['wrk', '-t2', `-c${o.connections}`, `-d${o.seconds}s`, '--timeout', '5s', '--latency', ...(o.script ? ['-s', o.script] : []), ...(o.headers ?? []).flatMap((h) => ['-H', h]), url];
  const out = await new Response(Bun.spawn(args, { stdout: 'pipe' }).stdout).text();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const ms = (label: string) => {
    const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0);
  return { rps, p50: ms('50%'), p99: ms('99%'), errors };
}

/** Writes a Lua script for wrk into `dir` and answers its path. */
export function luaScript(dir: string, name: string, text: string): string {
  const file = join(dir, `${name}.lua`);
  writeFileSync(file, text);
  return file;
}

const q = (s: string) => JSON.stringify(s);

/** A fixed request: method, JSON body. */
export const fixedLua = (method: string, body?: string) =>
  `wrk.method = ${q(method)}\n${body === undefined ? '' : `wrk.body = ${q(body)}\n`}wrk.headers["Content-Type"] = "application/json"\n`;

/** The run's headers, with `Content-Type: application/json` for a request with a body (a server may refuse it on an empty one). */
const HEADERS_LUA = `
local hdrs, bodyHdrs
local function headers(body)
  if not hdrs then
    hdrs = {}
    bodyHdrs = {}
    for k, v in pairs(wrk.headers) do hdrs[k] = v; bodyHdrs[k] = v end
    bodyHdrs["Content-Type"] = "application/json"
  end
  if body then return bodyHdrs end
  return hdrs
end
`;

/**
 * A request per row id: `mode` 'seq' walks ids from base + thread * 10,000,000 upwards (each id once: deletes),
 * 'random' picks an id in [base, base + span) (reads, updates). `{id}` in the path is replaced.
 */
export const idLua = (method: string, path: string, mode: 'seq' | 'random', base: number, span: number, body?: string) => `${HEADERS_LUA}
local n = 0
function setup(thread) thread:set("base", ${base} + n * 10000000); n = n + 1 end
local counter = 0
function init(args) math.randomseed(os.time() + (base or 0)) end
function request()
  local id
  if ${q(mode)} == "seq" then counter = counter + 1; id = base + counter else id = ${base} + math.random(0, ${span - 1}) end
  local p = string.gsub(${q(path)}, "{id}", tostring(id))
  local body = ${body === undefined ? 'nil' : q(body)}
  return wrk.format(${q(method)}, p, headers(body), body)
end
`;

/** The soak's mix: each entry `[weight, method, path with {id}, body or undefined, span]`; {id} random in [1, span]. */
export const mixLua = (entries: [number, string, string, string | undefined, number][]) => `${HEADERS_LUA}
math.randomseed(os.time())
local entries = {${entries.map(([w, m, p, b, n]) => `{${w}, ${q(m)}, ${q(p)}, ${b === undefined ? 'nil' : q(b)}, ${n}}`).join(', ')}}
local total = 0
for _, e in ipairs(entries) do total = total + e[1] end
function request()
  local r = math.random() * total
  for _, e in ipairs(entries) do
    r = r - e[1]
    if r <= 0 then
      local p = string.gsub(e[3], "{id}", tostring(math.random(1, e[5])))
      return wrk.format(e[2], p, headers(e[4]), e[4])
    end
  end
end
`;
