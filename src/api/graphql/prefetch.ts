/**
 * Relation fields loaded together with their page: a list resolver reads the relation fields its
 * selection asks for without arguments right after its rows (one query per relation, as the batch
 * loaders do) and leaves each row's value on the row, so the relation resolvers answer at once
 * instead of one promise per row through a loader. A relation field with arguments, a page too
 * large for one batch, or a load that fails is left to the resolver, which answers as before
 * (with its own error).
 */
import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo } from 'graphql';
import { collectFields } from './collect-fields';
import type { RelationModel, TableModel } from '../../schema/model';
import { loadRelatedFor } from '../../data/batch-loaders';
import { parseFields, parseLimit } from '../../data/list-query';
import type { GqlContext } from './relation-loaders';
import type { DataContext } from '../../data/data-context';
import { MAX_BATCH_PARENTS } from './limits';

type Row = Record<string, unknown>;

/** A relation field of an object type: the relation and how to work out its target's columns. */
export interface RelationField {
  rel: RelationModel;
  target: TableModel;
  /** The `fields` parameter of the target rows under these nodes; throws when the caller may not read one of them. */
  fields(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>, dc: DataContext): string | undefined;
}

/** One relation field to load with a page: its response key and its nodes. */
interface Wanted {
  key: string;
  field: RelationField;
  nodes: FieldNode[];
}

const PREFETCHED = Symbol('prefetched');

// A compiled query hands every execution the same node list: what to load is worked out once.
const remembered = new WeakMap<readonly FieldNode[], { relations: Map<string, RelationField>; wanted: Wanted[] }>();

function wantedUnder(info: GraphQLResolveInfo, relations: Map<string, RelationField>): Wanted[] {
  const hit = remembered.get(info.fieldNodes);
  if (hit && hit.relations === relations) return hit.wanted;
  const byKey = new Map<string, FieldNode[]>();
  for (const n of info.fieldNodes) collectFields(n.selectionSet, info.fragments, byKey);
  const wanted: Wanted[] = [];
  for (const [key, nodes] of byKey) {
    const field = relations.get(nodes[0]!.name.value);
    if (field && nodes.every((n) => n.name.value === nodes[0]!.name.value && !n.arguments?.length)) wanted.push({ key, field, nodes });
  }
  remembered.set(info.fieldNodes, { relations, wanted });
  return wanted;
}

/** Loads the argument-free relation fields selected under `info` for `rows` and leaves them on the rows. */
export async function prefetchRelations(ctx: GqlContext, t: TableModel, rows: Row[], info: GraphQLResolveInfo, relations: Map<string, RelationField>): Promise<void> {
  if (rows.length === 0 || rows.length > MAX_BATCH_PARENTS) return;
  const wanted = wantedUnder(info, relations);
  await Promise.all(
    wanted.map(async ({ key, field, nodes }) => {
      try {
        const fields = parseFields(field.target, field.fields(nodes, info.fragments, ctx.dc));
        const values = await loadRelatedFor(ctx.dc, t, rows, { relation: field.rel, fields, limit: parseLimit(undefined, ctx.dc.maxLimit) });
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i] as Row & { [PREFETCHED]?: Map<string, unknown> };
          (row[PREFETCHED] ??= new Map()).set(key, values[i]);
        }
      } catch {
        // The relation's resolver loads it again and answers with its error.
      }
    }),
  );
}

/** The value left on `row` for the field under `info`, if it was loaded with the page. */
export function prefetched(row: Row, info: GraphQLResolveInfo): { value: unknown } | undefined {
  const held = (row as { [PREFETCHED]?: Map<string, unknown> })[PREFETCHED];
  if (!held) return undefined;
  const node = info.fieldNodes[0]!;
  const key = node.alias?.value ?? node.name.value;
  return held.has(key) ? { value: held.get(key) } : undefined;
}
