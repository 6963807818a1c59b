/**
 * A client of the realtime socket for integration tests: every frame as text and as JSON, the close
 * code, a wait for the next matching message, and the presence messages of a table.
 */
export class LiveClient {
  frames: string[] = [];
  messages: any[] = [];
  closed: { code: number; reason: string } | null = null;
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  /** Opens the socket of `projectId` with a session token (`tablo.jwt.` protocol) or an API token (query). */
  constructor(base: string, projectId: string, auth: { token?: string; apiToken?: string }) {
    const query = auth.apiToken ? `&api_token=${auth.apiToken}` : '';
    const protocols = auth.token ? ['tablo.realtime', `tablo.jwt.${auth.token}`] : ['tablo.realtime'];
    this.ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/realtime?project_id=${projectId}${query}`, { protocols, headers: { Origin: base } } as any);
    this.ws.onmessage = (e) => {
      this.frames.push(String(e.data));
      this.messages.push(JSON.parse(String(e.data)));
    };
    this.ws.onclose = (e) => (this.closed = { code: e.code, reason: e.reason });
    this.opened = new Promise((resolve, reject) => {
      this.ws.onopen = () => resolve();
      this.ws.onerror = () => reject(new Error('socket error'));
    });
  }
  /** The next message (after `from`) that `pred` accepts, within `ms` (10 s: a loaded machine; a test that promises a time passes its own). */
  async next(pred: (m: any) => boolean, from = 0, ms = 10_000): Promise<any> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const hit = this.messages.slice(from).find(pred);
      if (hit) return hit;
      await Bun.sleep(10);
    }
    throw new Error(`no matching message within ${ms} ms; got ${JSON.stringify(this.messages.slice(from))}`);
  }
  send(m: unknown): void {
    this.ws.send(JSON.stringify(m));
  }
  /** Sends a message and waits for the server's answer to it: every message sent before that answer has arrived. */
  async ask(m: unknown): Promise<void> {
    const from = this.messages.length;
    this.send(m);
    await this.next((x) => x.type === 'ok' || x.type === 'error', from);
  }
  /** The presence messages of a table (after `from`). */
  presence(table: string, from = 0): any[] {
    return this.messages.slice(from).filter((m) => m.type === 'presence' && m.table === table);
  }
  /** The users of the latest presence message of a table, by e-mail. */
  others(table: string): string[] {
    const last = this.presence(table).at(-1);
    return (last?.users ?? []).map((u: any) => u.email).sort();
  }
}
