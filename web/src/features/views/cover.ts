/** The cover image of a card from an Attachment value. Pure. */

/**
 * A card's cover: an address an <img> loads, a file stored by this server (its short-lived link is
 * asked for, or `src` is the link its row came with, asked for again when it no longer loads), or none.
 */
export type Cover = string | { fileId: string; src?: string } | null;

const IMAGE_NAME = /\.(png|jpe?g|gif|webp|svg|avif)(\?|#|$)/i;

/** The cover of a card from an Attachment value (the first image file), or null. */
export function coverOf(value: unknown): Cover {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list)) return null;
  for (const f of list as { id?: string; url?: string; path?: string; signedUrl?: string; mimetype?: string; title?: string }[]) {
    if (!f || typeof f !== 'object') continue;
    // A file uploaded to this server, read without a link of its own (the dashboard): its link is asked for.
    if (typeof f.id === 'string' && typeof f.signedUrl !== 'string' && !(typeof f.url === 'string' && /^https?:\/\//i.test(f.url))) {
      if ((f.mimetype ?? '').startsWith('image/') || IMAGE_NAME.test(f.title ?? '')) return { fileId: f.id };
      continue;
    }
    const src = f.signedUrl ?? f.url ?? f.path;
    if (typeof src !== 'string') continue;
    const image = (f.mimetype ?? '').startsWith('image/') || IMAGE_NAME.test(src) || src.startsWith('data:image/');
    // Only web addresses, paths of this server and inline images: never script URLs.
    const safe = /^https?:\/\//i.test(src) || src.startsWith('/') || /^data:image\/(png|jpe?g|gif|webp|svg\+xml);/i.test(src);
    // A shared link's file comes with a short-lived link (signedUrl): kept with its id to be asked for again.
    if (image && safe) return typeof f.id === 'string' && src === f.signedUrl ? { fileId: f.id, src } : src;
  }
  return null;
}
