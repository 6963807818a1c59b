/**
 * Which columns a selection needs, so a list, a read or a relation loads only those: the column
 * fields asked for (through fragments too) plus the key columns the asked relation fields join
 * on. Skip/include directives are ignored, which can only load more, never less. The columns
 * named by the selection and those its relations join on are listed apart, so a column the caller
 * may not read is refused.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { FieldColumns } from './args';
import type { ColumnModel } from '../../schema/model';

/** Relation field name -> SQL names of this table's columns it joins on. */
export type RelationKeys = Map<string, string[]>;

function collect(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, out: Set<string>, seen: Set<string>): void {
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.FIELD) out.add(sel.name.value);
    else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet, fragments, out, seen);
    else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      collect(fragments[sel.name.value]?.selectionSet, fragments, out, seen);
    }
  }
}

/** What the rows under a field need: the `fields` parameter, and the columns the selection names itself. */
export interface Selection {
  /** Comma list of column aliases, or undefined for every column (nothing but __typename asked, or an alias that holds a comma). */
  fields: string | undefined;
  /**
   * The columns asked for by name, and those the asked relation fields join on (a related row shows
   * their value), to check against the caller's rights.
   */
  asked: ColumnModel[];
}

/** The selection of the rows under `nodes` (see Selection). */
export function selectedFields(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>, cols: FieldColumns, relationKeys: RelationKeys): Selection {
  // A compiled query hands every execution the same node list: the answer is worked out once.
  const hit = remembered.get(nodes);
  if (hit && hit.cols === cols) return hit.selection;
  const selection = compute(nodes, fragments, cols, relationKeys);
  remembered.set(nodes, { cols, selection });
  return selection;
}

const remembered = new WeakMap<readonly FieldNode[], { cols: FieldColumns; selection: Selection }>();

function compute(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>, cols: FieldColumns, relationKeys: RelationKeys): Selection {
  const names = new Set<string>();
  for (const n of nodes) collect(n.selectionSet, fragments, names, new Set());
  const byCn = new Map([...cols.values()].map((c) => [c.cn, c]));
  const chosen = new Set<string>();
  const asked: ColumnModel[] = [];
  for (const name of names) {
    const c = cols.get(name);
    if (c) {
      chosen.add(c._cn);
      asked.push(c);
    }
    for (const cn of relationKeys.get(name) ?? []) {
      const k = byCn.get(cn);
      if (k) {
        chosen.add(k._cn);
        if (!asked.includes(k)) asked.push(k);
      }
    }
  }
  if (chosen.size === 0 || [...chosen].some((a) => a.includes(','))) return { fields: undefined, asked };
  return { fields: [...chosen].join(','), asked };
}
