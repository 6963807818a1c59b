/**
 * Which headers an outgoing HTTP request can carry: a name of RFC 9110 token characters and a value
 * of one line of Latin-1. Webhooks and cron jobs check theirs on save, so a header fetch would refuse
 * is a 400 naming it, not a failure of every delivery or run later.
 */

/** A header name HTTP allows (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value HTTP can carry: one line of Latin-1 characters. */
const HEADER_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

/** Why the header `name: value` cannot be sent, or null when it can. */
export function headerProblem(name: string, value: string): string | null {
  if (!HEADER_NAME.test(name)) return `'${name}' is not a valid header name: use letters, digits and - _ . only, without spaces`;
  if (!HEADER_VALUE.test(value)) return `The value of header '${name}' cannot be sent: a header holds one line of Latin-1 characters`;
  return null;
}
