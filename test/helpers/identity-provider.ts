/**
 * A real OpenID Connect / OAuth 2.0 authorization server (panva's `oidc-provider`) on a loopback
 * port, for sign-in tests. It serves discovery, authorize, token, JWKS and userinfo as any provider
 * does; clients `tablo-oidc` and `tablo-google` (OIDC, client_secret_basic) and `tablo-github`
 * (client_secret_post). `/user` and `/user/emails` answer in GitHub's API shape for access tokens
 * that this server issued. `authorize()` walks its login and consent pages with fetch, like a browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpAccount {
  email: string;
  emailVerified?: boolean;
  name?: string;
}

export interface IdentityProvider {
  issuer: string;
  /** Accounts by login name (what is typed on the provider's login page). */
  accounts: Map<string, IdpAccount>;
  /** Follows an authorize URL through login and consent; answers the callback URL's code and state. */
  authorize(url: string, login: string): Promise<{ code: string; state: string; callback: URL }>;
  close(): Promise<void>;
}

export const IDP_SECRET = 'idp-client-secret-0123456789';

/** Starts the server; `redirectUris` are the callback URLs its clients may return to. */
export async function startIdentityProvider(redirectUris: string[]): Promise<IdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, IdpAccount>();
  const client = (id: string, auth = 'client_secret_basic') => ({
    client_id: id,
    client_secret: IDP_SECRET,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: auth,
  });
  const provider = new Provider(issuer, {
    clients: [client('tablo-oidc'), client('tablo-google'), client('tablo-github', 'client_secret_post')],
    scopes: ['openid', 'email', 'profile', 'read:user', 'user:email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx: unknown, id: string) => {
      const a = accounts.get(id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: a.email, email_verified: a.emailVerified ?? true, name: a.name }) };
    },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  });
  const quiet = () => {};
  provider.on('server_error', quiet);
  // GitHub's API shape over the access tokens this server issued.
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    if (ctx.method !== 'GET' || (ctx.path !== '/user' && ctx.path !== '/user/emails')) return next();
    const header = String(ctx.get('authorization') ?? '');
    const token = header.startsWith('Bearer ') ? await provider.AccessToken.find(header.slice(7)) : undefined;
    const account = token ? accounts.get(token.accountId) : undefined;
    ctx.type = 'application/json';
    if (!token || !account) {
      ctx.status = 401;
      ctx.body = { message: 'Bad credentials' };
      return;
    }
    ctx.body =
      ctx.path === '/user'
        ? { id: [...token.accountId].reduce((n: number, c: string) => n * 31 + c.charCodeAt(0), 7) % 1e9, login: token.accountId, name: account.name ?? null, avatar_url: null }
        : [{ email: account.email, primary: true, verified: account.emailVerified ?? true }];
  });
  server.on('request', provider.callback());

  async function authorize(url: string, login: string) {
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const kv = c.split(';')[0]!;
        jar.set(kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1));
      }
    };
    let next = url;
    for (let step = 0; step < 12; step++) {
      if (!next.startsWith(issuer)) {
        const callback = new URL(next);
        const code = callback.searchParams.get('code');
        if (!code) throw new Error(`the provider answered ${callback.searchParams.get('error')}: ${callback.searchParams.get('error_description')}`);
        return { code, state: callback.searchParams.get('state') ?? '', callback };
      }
      const res = await fetch(next, { redirect: 'manual', headers: { cookie: cookie() } });
      keep(res);
      if (res.status >= 300 && res.status < 400) {
        next = new URL(res.headers.get('location')!, next).toString();
        continue;
      }
      const html = await res.text();
      if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
      // A login or consent page: submit its form.
      const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
      if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`);
      const form = new URLSearchParams();
      for (const [input] of html.matchAll(/<input[^>]*>/g)) {
        const name = input.match(/name="([^"]+)"/)?.[1];
        if (name) form.set(name, input.match(/value="([^"]*)"/)?.[1] ?? '');
      }
      if (form.has('login')) {
        form.set('login', login);
        form.set('password', 'any');
      }
      const post = await fetch(new URL(action, next), { method: 'POST', redirect: 'manual', body: form, headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' } });
      keep(post);
      if (post.status < 300 || post.status >= 400) throw new Error(`the provider answered ${post.status} to its form: ${(await post.text()).slice(0, 300)}`);
      next = new URL(post.headers.get('location')!, next).toString();
    }
    throw new Error('the provider did not send the browser back');
  }

  return {
    issuer,
    accounts,
    authorize,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
