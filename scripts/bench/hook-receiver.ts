/**
 * The benchmark's webhook receiver, in a process of its own (so it does not take the app's event
 * loop): answers 200, remembers when each row's delivery arrived. GET /stats answers
 * { received, distinct, arrivals: { title: [ms since epoch, ...] } }; POST /reset forgets.
 *
 *   bun scripts/bench/hook-receiver.ts   (prints its port)
 */
let received = 0;
let ids = new Set<string>();
let arrivals: Record<string, number[]> = {};
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (req.method === 'GET' && path === '/stats') return Response.json({ received, distinct: ids.size, arrivals });
    if (req.method === 'POST' && path === '/reset') {
      received = 0;
      ids = new Set();
      arrivals = {};
      return new Response('ok');
    }
    const body = (await req.json()) as { data: { Title: string } };
    received++;
    ids.add(req.headers.get('x-tablo-delivery') ?? '');
    (arrivals[body.data.Title] ??= []).push(Date.now());
    return new Response('ok');
  },
});
console.log(server.port);
