/**
 * Secrets that lists show masked and that a save sent back masked keeps: the header values of
 * webhooks and cron jobs (they carry tokens) and the incoming-webhook URL of a chat hook (its path
 * is the token). The values in full are read on purpose only (xcHookHeaders, xcCronHeaders; a chat
 * plugin's webhook URL, masked by the App Store, through xcPluginSecrets).
 */
import { badRequest } from './errors';

/** What a header value shows in place of its characters. */
export const HEADER_MASK = '••••';

/**
 * A header value as lists show it: `••••` and its last 4 characters (only the mask for a value of 8
 * or fewer; an empty value stays empty, there is nothing to hide): enough to tell an `Authorization`
 * value from another, never enough to use one.
 */
export const maskHeaderValue = (value: string) => (value === '' ? '' : HEADER_MASK + (value.length > 8 ? value.slice(-4) : ''));

/** The headers with their values masked. */
export const maskHeaders = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, maskHeaderValue(v)]));

/**
 * The headers being saved: a value sent back as the list masked it keeps the stored value of that
 * header; a new value replaces it. A masked value that stands for no stored one (a header renamed,
 * or a new hook or job) cannot be saved: it is refused, naming the header.
 */
export function headersToSave(sent: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    const kept = Object.hasOwn(stored, name) && value === maskHeaderValue(stored[name]!) ? stored[name]! : undefined;
    if (kept === undefined && value.startsWith(HEADER_MASK)) throw badRequest(`The value of the header '${name}' is hidden: type it again`);
    out[name] = kept ?? value;
  }
  return out;
}

/**
 * A URL whose path is a token (a Slack, Discord, Teams or Mattermost incoming webhook) as lists show
 * it: its origin, then `••••` and the last 4 characters (`https://hooks.slack.com/••••Xy9z`).
 */
export function maskUrl(url: string): string {
  let origin = '';
  try {
    origin = new URL(url).origin;
  } catch {}
  return `${origin}/${HEADER_MASK}${url.length > 8 ? url.slice(-4) : ''}`;
}

/**
 * The URL being saved: sent back as the list masked it, it keeps the stored one; a masked URL that
 * stands for no stored one is refused.
 */
export function urlToSave(sent: string | undefined, stored: string | undefined): string | undefined {
  if (sent === undefined) return sent;
  if (stored !== undefined && sent === maskUrl(stored)) return stored;
  if (sent.includes(HEADER_MASK)) throw badRequest('The webhook URL is hidden: type it again');
  return sent;
}
