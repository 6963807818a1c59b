/**
 * The field nodes of a selection by response key, in order of first appearance, inline fragments
 * and fragment spreads followed (each named fragment once). What is collected ignores directives;
 * the answer tells whether any were met (or a fragment that does not exist), for callers that
 * handle only selections without them.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** Adds the fields of `set` to `out`; false when a directive or an unknown fragment was met. */
export function collectFields(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, out: Map<string, FieldNode[]>, seen: Set<string> = new Set()): boolean {
  let plain = true;
  for (const sel of set?.selections ?? []) {
    if (sel.directives?.length) plain = false;
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      const list = out.get(key);
      if (list) list.push(sel);
      else out.set(key, [sel]);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (!collectFields(sel.selectionSet, fragments, out, seen)) plain = false;
    } else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      const fragment = fragments[sel.name.value];
      if (!fragment || fragment.directives?.length) plain = false;
      if (!collectFields(fragment?.selectionSet, fragments, out, seen)) plain = false;
    }
  }
  return plain;
}
