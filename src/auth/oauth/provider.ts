/**
 * What every sign-in provider offers: the URL that starts an authorisation, and the identity read
 * back from the code it returns. Google and any OpenID Connect provider share one client; GitHub,
 * which speaks plain OAuth 2.0, has its own.
 */
import { badRequest, unavailable } from '../../lib/errors';

export type ProviderId = 'google' | 'github' | 'oidc';
export const PROVIDER_IDS: readonly ProviderId[] = ['google', 'github', 'oidc'];

/** The person the provider vouches for. */
export interface ProviderIdentity {
  /** Stable id of the account at the provider (`sub`, GitHub's numeric id). */
  subject: string;
  email: string | null;
  /** true when the provider says it verified the e-mail; null when it does not say. */
  emailVerified: boolean | null;
  name: string | null;
  picture: string | null;
}

export interface AuthorizeInput {
  state: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string;
}

export interface CodeInput {
  code: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
}

/** A configured provider. */
export interface OAuthProvider {
  id: ProviderId;
  /** Name shown on its button and in messages. */
  name: string;
  authorizeUrl(input: AuthorizeInput): Promise<string>;
  identify(input: CodeInput): Promise<ProviderIdentity>;
}

/** How long a call to a provider may take. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * fetch for provider calls: a time limit, network failures as 503 and error answers as 400, both
 * naming the provider. Answers the parsed JSON body.
 */
export async function providerFetch<T>(name: string, url: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (e) {
    // The reason (a name that does not resolve, a refused connection, the time limit) is for the server log.
    const where = URL.canParse(url) ? `${new URL(url).origin}${new URL(url).pathname}` : url;
    throw Object.assign(unavailable(`${name} could not be reached, please try again later`), { cause: new Error(`${where}: ${(e as Error).message}`) });
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw badRequest(`Sign-in with ${name} failed: unexpected answer (HTTP ${res.status})`);
  }
  const err = body as { error?: unknown; error_description?: unknown; message?: unknown } | null;
  if (!res.ok || (err && typeof err.error === 'string')) {
    const detail = [err?.error_description, err?.error, err?.message].find((v) => typeof v === 'string') ?? `HTTP ${res.status}`;
    throw badRequest(`Sign-in with ${name} failed: ${String(detail).slice(0, 200)}`);
  }
  return body as T;
}

/** PKCE S256 challenge of a verifier (RFC 7636). */
export function pkceChallenge(verifier: string): string {
  return new Bun.CryptoHasher('sha256').update(verifier).digest('base64url');
}
