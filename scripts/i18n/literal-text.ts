/**
 * Finds interface text written into the web app's code instead of coming from the message
 * catalogues: JSX text, text attributes (aria-label, title, placeholder, alt, label…) and string
 * values of text-like properties (label:, title:, heading:, text:, placeholder:, description:…),
 * and the first argument of toast(…)/notify(…)/confirm-like calls. A line that ends in
 * `// i18n-ignore` is skipped (for data, codes and names that are never translated).
 *
 *   bun scripts/i18n/literal-text.ts [paths…]   lists what it finds (default: web/src)
 */
import { parse } from '@babel/parser';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Finding {
  file: string;
  line: number;
  text: string;
}

const TEXT_ATTRS = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'heading', 'submitLabel', 'description', 'hint', 'emptyText', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'confirmLabel', 'cancelLabel', 'message', 'text', 'helpText']);
const TEXT_PROPS = new Set(['label', 'title', 'heading', 'text', 'placeholder', 'description', 'hint', 'message', 'submitLabel', 'emptyText', 'help', 'tooltip', 'caption', 'confirmLabel']);
const TEXT_CALLS = new Set(['toast', 'notify', 'confirmText', 'setError', 'setMessage', 'setStatus', 'setNotice', 'setInfo']);

/** Text a person reads: two letters in a row, not a lone identifier-looking token. */
const looksLikeText = (s: string) => /\p{L}{2,}/u.test(s) && !/^[a-z][a-zA-Z0-9]*$/.test(s.trim()) && !/^[a-z0-9_.-]+$/.test(s.trim()) && !/^(https?:|\/|#|\.)/.test(s.trim());

/** Words with a capital or spaces between them, unlike class names ('btn btn-…') and codes ('GET'). */
const proseLike = (s: string) => /\p{Lu}|\s/u.test(s.trim()) && !/^[\p{Lu}_\d]+$/u.test(s.trim()) && !/^[a-z0-9…_ -]+$/.test(s.trim());

function walk(node: unknown, visit: (n: Record<string, unknown>, parent: Record<string, unknown> | null) => void, parent: Record<string, unknown> | null = null): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit, parent);
    return;
  }
  const n = node as Record<string, unknown>;
  if (typeof n.type === 'string') visit(n, parent);
  for (const key of Object.keys(n)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'leadingComments' || key === 'trailingComments' || key === 'extra') continue;
    const v = n[key];
    if (v && typeof v === 'object') walk(v, visit, typeof n.type === 'string' ? n : parent);
  }
}

/** The findings of one file's source. */
export function literalText(file: string, source: string): Finding[] {
  const lines = source.split('\n');
  const ignored = (line: number) => /i18n-ignore/.test(lines[line - 1] ?? '') || /i18n-ignore-next/.test(lines[line - 2] ?? '');
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript', ...(file.endsWith('.tsx') ? (['jsx'] as const) : [])], errorRecovery: true });
  const out: Finding[] = [];
  const add = (n: Record<string, unknown>, text: string) => {
    const line = (n.loc as { start: { line: number } }).start.line;
    if (!ignored(line)) out.push({ file, line, text: text.trim().slice(0, 80) });
  };
  const strOf = (v: Record<string, unknown> | null | undefined): string | null => {
    if (!v) return null;
    if (v.type === 'StringLiteral') return v.value as string;
    if (v.type === 'TemplateLiteral') return ((v.quasis as { value: { cooked: string } }[]) ?? []).map((q) => q.value.cooked).join('…');
    if (v.type === 'JSXExpressionContainer') return strOf(v.expression as Record<string, unknown>);
    return null;
  };
  // Values already reported through their attribute.
  const reported = new WeakSet<object>();
  walk(ast.program, (n, parent) => {
    if (reported.has(n)) return;
    if ((n.type === 'StringLiteral' || n.type === 'TemplateLiteral') && parent && ['JSXExpressionContainer', 'ConditionalExpression', 'LogicalExpression'].includes(parent.type as string)) {
      const text = strOf(n);
      if (text !== null && looksLikeText(text) && proseLike(text)) add(n, `'${text}'`);
    } else if (n.type === 'NewExpression' && (n.callee as { name?: string }).name?.endsWith('Error')) {
      const text = strOf((n.arguments as Record<string, unknown>[])[0]);
      if (text !== null && looksLikeText(text)) add(n, `new ${(n.callee as { name: string }).name}('${text}')`);
    } else if (n.type === 'JSXText') {
      const text = n.value as string;
      if (looksLikeText(text)) add(n, text);
    } else if (n.type === 'JSXAttribute') {
      const name = (n.name as { name: string }).name;
      const text = strOf(n.value as Record<string, unknown>);
      if (TEXT_ATTRS.has(name) && text !== null && looksLikeText(text)) {
        add(n, `${name}="${text}"`);
        const value = n.value as Record<string, unknown> | null;
        if (value?.type === 'JSXExpressionContainer') reported.add(value.expression as object);
      }
    } else if (n.type === 'ObjectProperty') {
      const key = n.key as { type: string; name?: string; value?: string };
      const name = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
      const text = strOf(n.value as Record<string, unknown>);
      if (name && TEXT_PROPS.has(name) && text !== null && looksLikeText(text)) add(n, `${name}: '${text}'`);
    } else if (n.type === 'CallExpression') {
      const callee = n.callee as { type: string; name?: string; property?: { name?: string } };
      const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? callee.property?.name : undefined;
      const args = n.arguments as Record<string, unknown>[];
      if (!name || !TEXT_CALLS.has(name)) return;
      for (const a of args) {
        const text = strOf(a);
        if (text !== null && looksLikeText(text) && !/^(success|error|info|warning)$/.test(text)) add(n, `${name}('${text}')`);
      }
    }
  });
  return out;
}

function files(path: string): string[] {
  if (statSync(path).isFile()) return /\.tsx?$/.test(path) ? [path] : [];
  return readdirSync(path).flatMap((f) => (f === 'i18n' ? [] : files(join(path, f))));
}

/** Findings under the given paths (the catalogues themselves are skipped). */
export function scan(paths: string[]): Finding[] {
  return paths.flatMap(files).flatMap((f) => literalText(f, readFileSync(f, 'utf8')));
}

if (import.meta.main) {
  const found = scan(process.argv.slice(2).length ? process.argv.slice(2) : ['web/src']);
  for (const f of found) console.log(`${f.file}:${f.line}  ${f.text}`);
  console.log(`${found.length} literal text(s)`);
}
