/**
 * The headers a GraphQL Client request goes with: the caller's own (session token or master key, a
 * previewed role) under the ones typed in the headers editor, except that a session token the
 * editor was prefilled with and that has since been replaced (a refresh, a new sign-in) gives way to
 * the current one, so an open tab keeps working. A token the user typed themselves stays as typed.
 */

/** Session tokens this page has held (the editor may still show any of them). */
export type SeenTokens = Set<string>;

export function requestHeaders(caller: Record<string, string>, typed: Record<string, string> | undefined, seen: SeenTokens): Record<string, string> {
  const out = { ...caller, ...(typed ?? {}) };
  const own = caller['xc-auth'];
  const held = typed?.['xc-auth'];
  if (own && held && held !== own && seen.has(held)) out['xc-auth'] = own;
  return out;
}
