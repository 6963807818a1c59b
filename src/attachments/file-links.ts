/**
 * Short-lived links to stored files, which an <img> loads and a click opens without a session:
 * the storage's own signed URL when it has one (S3), else `/api/files/{id}?exp=&sig=` (under NC_PUBLIC_URL's
 * path when it has one, or the request's X-Forwarded-Prefix from a trusted proxy) signed with the
 * instance's connection key (served by src/attachments/routes.ts). Both live
 * the configured NC_ATTACHMENT_LINK_SECONDS (LIMITS.attachmentSignedUrlSeconds unless set).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context';
import type { StoredFile } from '../meta/files-repo';
import { storageNamed } from '../plugins/state';
import { requestPathOf } from '../http/link-base';

const signature = (ctx: AppContext, id: string, exp: number) => createHmac('sha256', ctx.secrets.connectionKey).update(`file:${id}:${exp}`).digest('base64url');

/** The storage's own signed URL of `f` (S3), or undefined when its storage has none. */
export function storageSignedUrl(ctx: AppContext, f: StoredFile): string | undefined {
  return storageNamed(ctx, f.storage)?.signedUrl?.(f.storage_key, { expiresIn: ctx.config.attachmentLinkSeconds, name: f.name, type: f.mimetype });
}

/** A link to `f` and when it stops working. */
export function signedFileLink(ctx: AppContext, f: StoredFile, request?: Request): { url: string; expiresAt: string } {
  const exp = Math.floor(Date.now() / 1000) + ctx.config.attachmentLinkSeconds;
  const url = storageSignedUrl(ctx, f) ?? requestPathOf(ctx.config, request, `/api/files/${encodeURIComponent(f.id)}?exp=${exp}&sig=${signature(ctx, f.id, exp)}`);
  return { url, expiresAt: new Date(exp * 1000).toISOString() };
}

/** True when `sig` signs file `id` until `exp` (seconds) and that time has not passed. */
export function validFileSignature(ctx: AppContext, id: string, exp: number, sig: string): boolean {
  if (!Number.isInteger(exp) || exp < Date.now() / 1000) return false;
  const want = Buffer.from(signature(ctx, id, exp));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}
