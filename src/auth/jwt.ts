/**
 * Session JWTs (HS256, 10 h): `{ id, email, v, sid }` where v is the user's token version and sid
 * the sign-in session (its refresh-token family): signing out or a reused refresh token ends the
 * session, and with it every JWT that names it (src/auth/sessions.ts).
 */
import { SignJWT, jwtVerify, errors } from 'jose';
import { LIMITS } from '../config/limits';
import { unauthorized } from '../lib/errors';

export interface SessionClaims {
  id: string;
  email: string;
  v: number;
  /** The sign-in session (refresh-token family); absent in tokens signed before sessions were named. */
  sid?: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export function signSession(secret: string, claims: SessionClaims, expiresIn: string | number = LIMITS.jwtExpiresIn): Promise<string> {
  return new SignJWT({ email: claims.email, v: claims.v, ...(claims.sid ? { sid: claims.sid } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.id)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key(secret));
}

/**
 * Tokens whose signature was already checked, until they expire: verifying HS256 through WebCrypto
 * costs far more than the rest of a small request. The user's token version is still checked on
 * every request by the caller, so a password change ends older sessions at once.
 */
const verified = new Map<string, SessionClaims & { exp: number; secret: string }>();
const VERIFIED_MAX = 10_000;

/** The claims of a token whose signature was already checked and which has not expired, else undefined (no await). */
export function verifiedSession(secret: string, token: string): SessionClaims | undefined {
  const hit = verified.get(token);
  return hit && hit.secret === secret && hit.exp * 1000 > Date.now() ? hit : undefined;
}

/** Verifies signature and expiry; 401 'Token expired please login to continue' when expired. */
export async function verifySession(secret: string, token: string): Promise<SessionClaims> {
  const hit = verified.get(token);
  if (hit && hit.secret === secret) {
    if (hit.exp * 1000 > Date.now()) return { id: hit.id, email: hit.email, v: hit.v, sid: hit.sid };
    verified.delete(token);
    throw unauthorized('Token expired please login to continue');
  }
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.v !== 'number' || typeof payload.exp !== 'number') {
      throw unauthorized('Invalid token');
    }
    const claims: SessionClaims = { id: payload.sub, email: payload.email, v: payload.v, ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}) };
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { ...claims, exp: payload.exp, secret });
    return claims;
  } catch (e) {
    if (e instanceof errors.JWTExpired) throw unauthorized('Token expired please login to continue');
    if (e instanceof errors.JOSEError) throw unauthorized('Invalid token');
    throw e;
  }
}
