/**
 * Content-Disposition for a file name of any characters (RFC 6266): `filename` holds an ASCII
 * stand-in for old clients, `filename*` the name itself as percent-encoded UTF-8 (RFC 5987). No
 * name can end the quoted string, add a parameter or start a header line: quotes, backslashes,
 * semicolons, control and non-ASCII characters become `_` in the stand-in, and `%` too, since some
 * browsers decode escapes in `filename`.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string, fallback = name): string {
  const ascii = fallback.replace(/[^\x20-\x7e]|["\\;%]/gu, '_');
  // encodeURIComponent leaves ' ( ) * as they are, which RFC 5987 does not allow unencoded.
  const encoded = encodeURIComponent(name.toWellFormed()).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `name` (a table's or a view's title, say) fit to be a file name on any system: control characters
 * and / \ : * ? " < > | become `_`, other characters stay; `empty` when nothing is left.
 */
export const fileNameOf = (name: string, empty: string): string => name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').trim() || empty;

/** Types a browser may show inline, from a stored file's own link; everything else downloads. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif|bmp)|application\/pdf|text\/plain)$/;

/**
 * How a stored file is served (Tablo's own route and S3's signed links alike): common images, PDF and
 * plain text inline with their type; anything else (HTML, SVG, scripts) as a download typed
 * application/octet-stream, so it never runs as a page.
 */
export function servedAs(type: string, name: string): { type: string; disposition: string } {
  const inline = INLINE_TYPES.test(type);
  return { type: inline ? type : 'application/octet-stream', disposition: contentDisposition(inline ? 'inline' : 'attachment', name) };
}
