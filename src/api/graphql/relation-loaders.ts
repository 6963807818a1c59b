/**
 * Per-request batching of relation fields. GraphQL resolves a relation field once per parent row;
 * these loaders gather every parent of one field (one selection in the query) and load them with
 * the data core's batch entry points: one query per relation per nesting level.
 * note: a level holding more than MAX_BATCH_PARENTS parent rows is loaded in chunks of that size,
 * which keeps every statement under the engines' bound-parameter limits.
 */
import DataLoader from 'dataloader';
import type { RelationModel, TableModel } from '../../schema/model';
import type { DataContext } from '../../data/records-service';
import { countChildrenFor, loadRelatedFor } from '../../data/batch-loaders';
import { readableTable } from '../../data/read-scope';
import { parseFields, parseLimit, parseOffset, parseSort, type NestedQuery } from '../../data/list-query';
import { parseWhere } from '../../data/where-parser';
import { MAX_BATCH_PARENTS } from './limits';

type Row = Record<string, unknown>;

/** What every resolver of a request receives. */
export interface GqlContext {
  dc: DataContext;
  /**
   * Per-request batch loaders, keyed by the field's node list (`info.fieldNodes`): graphql-js
   * hands every sibling row the same list, and a fragment reached through two different merged
   * selections gets two lists, so two loaders that each read the columns their selection needs.
   */
  loaders: Map<unknown, DataLoader<Row, unknown>>;
}

/** Options of a relation field: the same where, sort, limit and offset as REST's hwhere1, ... */
export interface RelationArgs {
  where?: string | null;
  sort?: string | null;
  limit?: number | null;
  offset?: number | null;
}

function loaderFor(ctx: GqlContext, key: unknown, batch: (parents: Row[]) => Promise<unknown[]>): DataLoader<Row, unknown> {
  let l = ctx.loaders.get(key);
  if (!l) {
    // async: an error thrown while parsing the field's options rejects the loads with that error.
    l = new DataLoader<Row, unknown>(async (parents) => batch([...parents]), { cache: false, maxBatchSize: MAX_BATCH_PARENTS });
    ctx.loaders.set(key, l);
  }
  return l;
}

/**
 * Related rows (hm/mm list, bt row or null) of `parent`, batched with its siblings; `fields`
 * gives the target columns the selection needs (undefined: all).
 */
export function loadRelated(ctx: GqlContext, key: unknown, t: TableModel, rel: RelationModel, target: TableModel, a: RelationArgs, fields: () => string | undefined, parent: Row): Promise<unknown> {
  return loaderFor(ctx, key, (parents) => {
    const n: NestedQuery = {
      relation: rel,
      fields: parseFields(target, fields()),
      // Filters and sorts see only the columns the caller may read.
      where: parseWhere(a.where ?? undefined, readableTable(ctx.dc, target)),
      sort: a.sort ? parseSort(readableTable(ctx.dc, target), a.sort, rel.type === 'mm' ? '__t' : undefined) : undefined,
      limit: parseLimit(a.limit == null ? undefined : String(a.limit), ctx.dc.maxLimit),
      offset: parseOffset(a.offset == null ? undefined : String(a.offset)) || undefined,
    };
    return loadRelatedFor(ctx.dc, t, parents, n);
  }).load(parent);
}

/** Number of has-many children of `parent`, batched with its siblings (one GROUP BY). */
export function countRelated(ctx: GqlContext, key: unknown, t: TableModel, rel: RelationModel, child: TableModel, a: RelationArgs, parent: Row): Promise<unknown> {
  return loaderFor(ctx, key, (parents) => countChildrenFor(ctx.dc, t, parents, rel, parseWhere(a.where ?? undefined, readableTable(ctx.dc, child)))).load(parent);
}
