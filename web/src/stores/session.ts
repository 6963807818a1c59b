/**
 * The signed-in user: token (kept in localStorage), user record from /user/me, and the server's
 * project info from /auth/type. Sign-out clears user, token and auth type. The tabs of one browser
 * share the token: a sign-out or sign-in in one is followed by the others (`followOtherTabs`).
 */
import { computed, signal } from './signals';

/** The signed-in user as GET /user/me answers it. */
export interface User {
  id: string | null;
  email: string | null;
  firstname?: string | null;
  lastname?: string | null;
  roles: Record<string, boolean>;
  /** Profile picture URL (an upload's path or the URL the user chose), or null. */
  picture?: string | null;
  /** False for an account that signs in only with a provider. */
  hasPassword?: boolean;
  /** May create projects and connect databases (the Super Admin always may, others when allowed). */
  mayCreateProjects?: boolean;
}

/** A sign-in provider the server is configured for. */
export interface SigninProvider {
  id: string;
  name: string;
}

/** The server's answer to GET /auth/type. */
export interface ProjectInfo {
  authType: 'none' | 'jwt' | 'masterKey';
  firstUser: boolean;
  /** Whether anyone may sign up without an invite (NC_ALLOW_SIGNUP). */
  allowSignup?: boolean;
  projectHasDb: boolean;
  projectHasAdmin: boolean;
  env: string;
  version: string;
  /** Configured sign-in providers (Google, GitHub, OpenID Connect); their buttons show only then. */
  providers?: SigninProvider[];
}

const TOKEN_KEY = 'tablo.token';
const MASTER_KEY = 'tablo.masterKey';

/** The session token (xc-auth), kept in localStorage. */
export const token = signal<string | null>(localStorage.getItem(TOKEN_KEY));
/** The master key (xc-master-key) of a Tablo started with one, kept in localStorage. */
export const masterKey = signal<string | null>(localStorage.getItem(MASTER_KEY));
/** The signed-in user, or null. */
export const user = signal<User | null>(null);
/** Auth type, first-user flag and version of the server, loaded before the app renders. */
export const projectInfo = signal<ProjectInfo | null>(null);

/** True for a user with an e-mail, or the master key / no-auth principal. */
export const isSignedIn = computed(() => !!user.value && (!!user.value.email || !!user.value.roles.super));
/** True for the Super Admin (and the master key). */
export const isSuperAdmin = computed(() => !!user.value?.roles.super);
/** True for a user who may create projects and connect databases (Super Admin, or allowed by them). */
export const mayCreateProjects = computed(() => !!user.value?.roles.super || !!user.value?.mayCreateProjects);

/** The session token as this browser keeps it now (another tab may have set a newer one than `token` holds). */
export const keptToken = (): string | null => localStorage.getItem(TOKEN_KEY);

/** Keeps (or with null forgets) the session token. */
export function setToken(t: string | null): void {
  token.value = t;
  if (t) localStorage.setItem(TOKEN_KEY, t);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Keeps (or with null forgets) the master key. */
export function setMasterKey(k: string | null): void {
  masterKey.value = k;
  if (k) localStorage.setItem(MASTER_KEY, k);
  else localStorage.removeItem(MASTER_KEY);
}

/** Clears user, token and master key. */
export function clearSession(): void {
  setToken(null);
  setMasterKey(null);
  user.value = null;
}

/**
 * Follows sign-outs and sign-ins (and refreshed tokens) of the other tabs of this browser: the
 * `storage` event fires in every tab but the one that wrote. Token and master key are taken as
 * localStorage holds them now; `changed` hears whether a session is left. Answers the function that
 * stops following.
 */
export function followOtherTabs(changed: (signedIn: boolean) => void): () => void {
  const onStorage = (e: StorageEvent) => {
    // key null: the whole storage was cleared.
    if (e.storageArea !== localStorage || (e.key !== null && e.key !== TOKEN_KEY && e.key !== MASTER_KEY)) return;
    const t = localStorage.getItem(TOKEN_KEY);
    const k = localStorage.getItem(MASTER_KEY);
    if (t === token.value && k === masterKey.value) return;
    token.value = t;
    masterKey.value = k;
    changed(!!t || !!k);
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
