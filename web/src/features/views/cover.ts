/** The cover image of a card from an Attachment value. Pure. */

/** A cover image address of an Attachment value (the first image file), or null. */
export function coverOf(value: unknown): string | null {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list)) return null;
  for (const f of list as { url?: string; path?: string; signedUrl?: string; mimetype?: string; title?: string }[]) {
    const src = f?.signedUrl ?? f?.url ?? f?.path;
    if (typeof src !== 'string') continue;
    const image = (f.mimetype ?? '').startsWith('image/') || /\.(png|jpe?g|gif|webp|svg|avif)(\?|#|$)/i.test(src) || src.startsWith('data:image/');
    // Only web addresses, paths of this server and inline images: never script URLs.
    const safe = /^https?:\/\//i.test(src) || src.startsWith('/') || /^data:image\/(png|jpe?g|gif|webp|svg\+xml);/i.test(src);
    if (image && safe) return src;
  }
  return null;
}
