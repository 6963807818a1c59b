/**
 * Formula text as the user writes it (columns by display alias: `{First Name}`) and as it is
 * stored (canonical: `{c:first_name}` for a column by SQL name, `{v:Full Name}` for a virtual
 * column by alias), so renaming a display alias needs no rewrite.
 */
import type { TableModel } from '../model';
import { FormulaError } from './formula-error';
import { rewriteRefs } from './formula-lexer';

/** A canonical reference split into its kind and name. */
export function splitRef(ref: string): { kind: 'c' | 'v'; name: string } | null {
  const m = /^([cv]):([\s\S]*)$/.exec(ref);
  return m ? { kind: m[1] as 'c' | 'v', name: m[2]! } : null;
}

/** User text -> canonical text; an unknown column is a FormulaError at its position. */
export function toCanonical(text: string, t: TableModel): string {
  return rewriteRefs(text, (name, pos) => {
    const key = name.trim();
    const c = t.columns.find((x) => x._cn === key) ?? t.columns.find((x) => x.cn === key);
    if (c) return `c:${c.cn}`;
    const v = t.virtuals?.find((x) => x._cn === key);
    if (v) return `v:${v._cn}`;
    throw new FormulaError(`Column '${key}' not found`, pos);
  });
}

/** Canonical text -> user text with the current aliases (unknown names are shown as stored). */
export function toDisplay(canonical: string, t: TableModel): string {
  return rewriteRefs(canonical, (ref) => {
    const r = splitRef(ref);
    if (!r) return ref;
    if (r.kind === 'v') return r.name;
    return t.columns.find((c) => c.cn === r.name)?._cn ?? r.name;
  });
}

/** Canonical text with references renamed by `map` (a column rename, a virtual column rename). */
export function renameRefs(canonical: string, kind: 'c' | 'v', from: string, to: string): string {
  return rewriteRefs(canonical, (ref) => {
    const r = splitRef(ref);
    return r && r.kind === kind && r.name === from ? `${kind}:${to}` : ref;
  });
}

/** Whether canonical text refers to a column (kind c) or virtual column (kind v) named `name`. */
export function refersTo(canonical: string, kind: 'c' | 'v', name: string): boolean {
  let found = false;
  rewriteRefs(canonical, (ref) => {
    const r = splitRef(ref);
    if (r && r.kind === kind && r.name === name) found = true;
    return ref;
  });
  return found;
}
