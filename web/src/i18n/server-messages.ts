/**
 * The server's English messages in the reader's language. The server answers `{ msg }` in English
 * (its API does not change); `messages/server/en.json` holds templates of the messages people meet
 * most, with `{name}` placeholders where the server puts names and values (`Column '{column}'
 * cannot be empty`). A msg that matches a template whole gives its placeholders to the translation
 * of the same key; any other msg stays as the server wrote it. Placeholders are plain text (the
 * result is a string that React shows as text), never markup. Not ICU: the server's apostrophes
 * are literal quotes here.
 */
import type { LocaleCode } from './locales';
import server_en from './messages/server/en.json';
import server_zh_CN from './messages/server/zh_CN.json';
import server_fr from './messages/server/fr.json';
import server_es from './messages/server/es.json';
import server_pt from './messages/server/pt.json';

export type ServerMessageKey = keyof typeof server_en;

/** The templates per language (the unit test checks every language has every key and placeholder). */
export const SERVER_MESSAGES: Record<LocaleCode, Record<string, string>> = {
  en: server_en,
  zh_CN: server_zh_CN,
  fr: server_fr,
  es: server_es,
  pt: server_pt,
};

/** `{name}` placeholders of a template. */
const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholder names of a template, in order. */
export const placeholdersOf = (template: string): string[] => [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template as an anchored expression: literal parts as they are, each placeholder non-greedy. */
function patternOf(template: string): RegExp {
  let source = '';
  let at = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    source += escape(template.slice(at, m.index)) + '([\\s\\S]*?)';
    at = m.index! + m[0].length;
  }
  return new RegExp(`^${source}${escape(template.slice(at))}$`);
}

/**
 * Templates that wrap another message (`{message}`), matched apart: the bulk-call prefix ("Row 3: …"),
 * an import stopped at a line ("Stopped at line 4: …"), a request refused after a redirect ("… (redirected from …)"),
 * a schema change's failed step ("Step 1 of 2 failed: …"), the audit log's failed sign-ins and closed terminals (with the reason).
 */
const WRAPPERS = ['rowPrefix', 'import.stoppedAt', 'clients.redirected', 'schema.stepFailed', 'audit.failedSignIn', 'audit.failedSignInWith', 'audit.terminalClosed'];

const patterns: { key: string; pattern: RegExp; names: string[] }[] = Object.entries(server_en as Record<string, string>)
  .filter(([key]) => !WRAPPERS.includes(key))
  .map(([key, template]) => ({ key, pattern: patternOf(template), names: placeholdersOf(template) }));
const wrappers = WRAPPERS.map((key) => ({ key, pattern: patternOf((server_en as Record<string, string>)[key]!), names: placeholdersOf((server_en as Record<string, string>)[key]!) }));

/** The key of the template a message matches, with its placeholders' values; null when none does. */
export function matchServerMessage(msg: string): { key: string; values: Record<string, string> } | null {
  for (const { key, pattern, names } of patterns) {
    const m = pattern.exec(msg);
    if (m) return { key, values: Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) };
  }
  return null;
}

/** A template with its placeholders filled in (as text: no markup is read). */
const fill = (template: string, values: Record<string, string>): string =>
  template.replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name]! : whole));

/**
 * A server msg in language `code`: the translation of the template it matches, else the msg as it
 * came. The WRAPPERS (`Row 3: <message>` of bulk calls...) and `field: <message>` (a field named before
 * a check's message) keep their words around the translated message.
 */
export function translateServerMessage(msg: string, code: LocaleCode): string {
  const catalogue = SERVER_MESSAGES[code];
  const whole = matchServerMessage(msg);
  if (whole) return fill(catalogue[whole.key] ?? server_en[whole.key as ServerMessageKey], whole.values);
  for (const w of wrappers) {
    const m = w.pattern.exec(msg);
    if (!m) continue;
    const values: Record<string, string> = Object.fromEntries(w.names.map((n, i) => [n, m[i + 1]!]));
    const inner = translateServerMessage(values.message!, code);
    if (inner !== values.message) return fill(catalogue[w.key] ?? (server_en as Record<string, string>)[w.key]!, { ...values, message: inner });
    return msg;
  }
  const field = /^([\w.]{1,60}|[A-Z][\w ]{0,40}): ([\s\S]+)$/.exec(msg);
  if (field) {
    const inner = matchServerMessage(field[2]!);
    if (inner) return `${field[1]}: ${fill(catalogue[inner.key] ?? server_en[inner.key as ServerMessageKey], inner.values)}`;
  }
  return msg;
}
