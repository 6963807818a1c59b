/**
 * A real HTTP receiver on 127.0.0.1 (Bun.serve on port 0) for webhook and cron tests: records
 * every request; a path's answer can be set (status, or a promise to hold the request open).
 */
export interface Received {
  path: string;
  /** The query string, `?` included (empty when none). */
  search: string;
  method: string;
  headers: Headers;
  body: string;
  json: any;
}

export function startReceiver() {
  const got: Received[] = [];
  const answers = new Map<string, (r: Received) => Response | Promise<Response>>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = await req.text();
      let json: any = null;
      try {
        json = body ? JSON.parse(body) : null;
      } catch {}
      const url = new URL(req.url);
      const r: Received = { path: url.pathname, search: url.search, method: req.method, headers: req.headers, body, json };
      got.push(r);
      const answer = answers.get(r.path);
      return answer ? answer(r) : new Response('ok');
    },
  });
  return {
    got,
    /** Sets how a path answers. */
    answer: (path: string, fn: (r: Received) => Response | Promise<Response>) => answers.set(path, fn),
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    at: (path: string) => got.filter((r) => r.path === path),
    stop: () => server.stop(true),
  };
}

/** Polls `fn` until it answers truthy (up to `ms`), then answers its value; throws naming `what` otherwise. */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}
