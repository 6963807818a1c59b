/**
 * An executor of our own for plain queries: root `TList`, `TRead` and `TFindOne` fields whose
 * selections hold only columns, `__typename` and argument-free relation fields (`PRead`, `CList`,
 * `MMMList`) with plain selections of their own, through fragments, without directives. Such a
 * query is worked out once per document; running it reads each level with the data core (the
 * same calls as the resolvers: one query per root field, one per relation per level) and builds
 * the answer straight from the rows, values passed through the fields' own scalars (plain-shaper.ts).
 * A list whose relations have none below them takes a shorter road: the page and its relations in
 * one read plan, answer objects made straight from the driver's rows, related rows landing under
 * their response keys, and, for a caller without limits and fixed arguments, the same parameters
 * and nested queries each time. Anything else
 * is not plain (the caller runs it as usual), and any error while running is thrown for the
 * caller to hand the request to graphql-yoga, which answers with its error.
 */
import {
  getArgumentValues, getVariableValues, GraphQLList, GraphQLScalarType, Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode,
  type GraphQLField, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import * as data from '../../data/records-service';
import { loadRelatedFor } from '../../data/batch-loaders';
import { parseFields, parseLimit, type NestedQuery, type RowMaker } from '../../data/list-query';
import type { DataContext } from '../../data/data-context';
import { assertReadable } from '../../data/read-scope';
import { isUnrestricted } from '../../data/access';
import { callerKey } from '../../data/read-plans';
import { paramsOf } from './args';
import { MAX_BATCH_PARENTS } from './limits';
import type { RelationField } from './prefetch';
import { schemaTables, type RootRead, type SchemaTables, type TableTypes } from './schema-builder';
import { selectedFields } from './selected-columns';
import { collectFields } from './collect-fields';
import { rawShaperOf, shaperOf, type ShapeOutput } from './plain-shaper';

type Row = Record<string, unknown>;
type Fragments = Record<string, FragmentDefinitionNode>;

/** Related rows of a selection: the relation field, and the symbol its values are left at on the parent rows. */
interface RelationOutput {
  key: string;
  field: RelationField;
  held: symbol;
  selection: RowSelection;
}

/** What is asked of the rows of one table under one field. */
interface RowSelection {
  tt: TableTypes;
  /** The field's nodes (all the nodes merged under its response key). */
  nodes: FieldNode[];
  outputs: ShapeOutput[];
  relations: RelationOutput[];
}

type RootOutput =
  | { kind: 'typename'; key: string }
  | {
      kind: RootRead;
      key: string;
      field: GraphQLField<unknown, unknown>;
      node: FieldNode;
      args?: Record<string, unknown>;
      selection: RowSelection;
      /** The answer object of a data core row. */
      shape: (row: Row) => Row;
      /** For a list whose relations have none below them: answer objects made from driver rows, per level. */
      direct?: { makeRow: RowMaker; relations: { r: RelationOutput; makeRow: RowMaker }[]; read?: DirectRead; restricted?: WeakMap<object, Map<string, DirectRead>> };
      /** Names the list's nested part for the read plans. */
      shapeKey: string;
    };

/**
 * What a direct list reads: its parameters and nested relations, kept when the arguments are fixed: once
 * for callers without limits, per rules object and caller for the others (what they may read follows both).
 */
interface DirectRead {
  params: Record<string, string | undefined>;
  nested: NestedQuery[];
}

/** Callers with rules whose reads are kept per direct list and rules object. */
const KEPT_CALLERS_MAX = 64;

type Direct = NonNullable<Extract<RootOutput, { kind: RootRead }>['direct']>;

/** The read kept for this caller of a direct list with fixed arguments, if any. */
function keptRead(direct: Direct, dc: DataContext): DirectRead | undefined {
  if (isUnrestricted(dc.actor)) return direct.read;
  return dc.acl ? direct.restricted?.get(dc.acl)?.get(callerKey(dc)) : undefined;
}

/** Keeps `read` for this caller (not for a caller with rules none are cached for). */
function keepRead(direct: Direct, dc: DataContext, read: DirectRead): void {
  if (isUnrestricted(dc.actor)) return void (direct.read = read);
  if (!dc.acl) return;
  direct.restricted ??= new WeakMap();
  let byCaller = direct.restricted.get(dc.acl);
  if (!byCaller) direct.restricted.set(dc.acl, (byCaller = new Map()));
  if (byCaller.size >= KEPT_CALLERS_MAX) byCaller.clear();
  byCaller.set(callerKey(dc), read);
}

/** A plain query operation, ready to run many times. */
export interface PlainQuery {
  /** `{ data }` of the operation; throws or rejects on any error (the caller then lets yoga answer). */
  run(dc: DataContext, variables: Record<string, unknown> | undefined): Promise<{ data: Row }>;
}

/** Raised while compiling: the operation is not plain. */
const NOT_PLAIN = Symbol('not plain');

function fieldsByKey(nodes: readonly FieldNode[], fragments: Fragments): Map<string, FieldNode[]> {
  const byKey = new Map<string, FieldNode[]>();
  for (const n of nodes) if (!collectFields(n.selectionSet, fragments, byKey)) throw NOT_PLAIN;
  return byKey;
}

/** The plain selection of `tt`'s rows under `nodes`. */
function rowSelection(tables: SchemaTables, tt: TableTypes, nodes: FieldNode[], fragments: Fragments): RowSelection {
  const fields = tt.object.getFields();
  const outputs: ShapeOutput[] = [];
  const relations: RelationOutput[] = [];
  for (const [key, group] of fieldsByKey(nodes, fragments)) {
    const name = group[0]!.name.value;
    // An object literal would take this key for its prototype.
    if (key === '__proto__') throw NOT_PLAIN;
    if (name === '__typename') {
      outputs.push({ kind: 'typename', key, name: tt.object.name });
      continue;
    }
    const column = tt.cols.get(name);
    if (column) {
      const scalar = fields[name]?.type;
      if (!(scalar instanceof GraphQLScalarType)) throw NOT_PLAIN;
      outputs.push({ kind: 'column', key, column, scalar });
      continue;
    }
    const field = tt.relations.get(name);
    if (!field || group.some((n) => n.arguments?.length)) throw NOT_PLAIN;
    const list = fields[name]?.type instanceof GraphQLList;
    const target = [...tables.types.values()].find((x) => x.t === field.target);
    if (!target) throw NOT_PLAIN;
    const selection = rowSelection(tables, target, group, fragments);
    const held = Symbol(key);
    relations.push({ key, field, held, selection });
    outputs.push({ kind: 'relation', key, held, list, outputs: selection.outputs });
  }
  return { tt, nodes, outputs, relations };
}

/** The `fields` parameter of a selection's rows, refusing (403) a column the caller may not read. */
function fieldsOf(dc: DataContext, s: RowSelection, fragments: Fragments): string | undefined {
  const sel = selectedFields(s.nodes, fragments, s.tt.cols, s.tt.relKeys);
  assertReadable(dc, s.tt.t, sel.asked);
  return sel.fields;
}

/** The related rows of `r` as the data core reads them, landing on each parent row under `r.held`; refuses (403) a hidden column. */
function nestedQuery(dc: DataContext, r: RelationOutput, fragments: Fragments): NestedQuery {
  return { relation: r.field.rel, fields: parseFields(r.field.target, r.field.fields(r.selection.nodes, fragments, dc)), limit: parseLimit(undefined, dc.maxLimit), as: r.held };
}

/** The related rows `r` left on `rows`, in one list. */
function relatedRows(rows: Row[], r: RelationOutput): Row[] {
  const next: Row[] = [];
  for (const row of rows) {
    const v = (row as Record<symbol, unknown>)[r.held];
    if (Array.isArray(v)) next.push(...(v as Row[]));
    else if (v) next.push(v as Row);
  }
  return next;
}

/** Loads the relations under each of `relations` (already on `rows`), level by level. */
async function loadBelow(dc: DataContext, relations: RelationOutput[], rows: Row[], fragments: Fragments): Promise<void> {
  await Promise.all(relations.map((r) => (r.selection.relations.length ? loadRelations(dc, r.selection, relatedRows(rows, r), fragments) : undefined)));
}

/** Loads the relations of `s` for `rows`, level by level: one query per relation per level (per batch of parents). */
async function loadRelations(dc: DataContext, s: RowSelection, rows: Row[], fragments: Fragments): Promise<void> {
  if (rows.length === 0 || s.relations.length === 0) return;
  await Promise.all(
    s.relations.map(async (r) => {
      const n = nestedQuery(dc, r, fragments);
      for (let i = 0; i < rows.length; i += MAX_BATCH_PARENTS) {
        const batch = rows.length <= MAX_BATCH_PARENTS ? rows : rows.slice(i, i + MAX_BATCH_PARENTS);
        const related = await loadRelatedFor(dc, s.tt.t, batch, n);
        for (let j = 0; j < batch.length; j++) (batch[j] as Record<symbol, unknown>)[r.held] = related[j];
      }
    }),
  );
  // A row reached twice (a parent shared by two children) is loaded twice, with the same answer.
  await loadBelow(dc, s.relations, rows, fragments);
}

/** Selections compiled so far: names the nested part of a list for the read plans. */
let selections = 0;

/** The plain form of `operation`, or undefined when it is not plain. `document` must be valid for `schema`. */
export function plainQuery(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): PlainQuery | undefined {
  const tables = schemaTables(schema);
  const queryType = schema.getQueryType();
  if (!tables || !queryType || operation.operation !== 'query' || operation.directives?.length) return undefined;
  const fragments: Fragments = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const variableDefinitions = operation.variableDefinitions ?? [];

  const roots: RootOutput[] = [];
  try {
    const byKey = new Map<string, FieldNode[]>();
    if (!collectFields(operation.selectionSet, fragments, byKey)) return undefined;
    const queryFields = queryType.getFields();
    for (const [key, group] of byKey) {
      const node = group[0]!;
      const name = node.name.value;
      if (key === '__proto__') return undefined;
      if (name === '__typename') {
        roots.push({ kind: 'typename', key });
        continue;
      }
      const root = tables.roots.get(name);
      const field = queryFields[name];
      if (!root || !field) return undefined;
      // Validation has made every node of the key the same field with the same arguments.
      const args = variableDefinitions.length ? undefined : getArgumentValues(field, node);
      const selection = rowSelection(tables, root.tt, group, fragments);
      const direct = root.kind === 'list' && selection.relations.every((r) => r.selection.relations.length === 0)
        ? { makeRow: rawShaperOf(selection.outputs), relations: selection.relations.map((r) => ({ r, makeRow: rawShaperOf(r.selection.outputs) })) }
        : undefined;
      roots.push({ kind: root.kind, key, field, node, args, selection, shape: shaperOf(selection.outputs), direct, shapeKey: `graphql#${++selections}` });
    }
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }

  /** The value of a root field (not async on the direct road: one promise, that of the data core). */
  const runRoot = (dc: DataContext, r: Exclude<RootOutput, { kind: 'typename' }>, variables: Record<string, unknown>): Promise<unknown> => {
    const { t, cols } = r.selection.tt;
    const { direct } = r;
    if (direct) {
      // Answer objects made once, straight from the driver's rows; related rows land under their response keys.
      // The same arguments and the same rights: the same read as last time (its rights checks passed then).
      const fixed = r.args !== undefined;
      let read = fixed ? keptRead(direct, dc) : undefined;
      if (!read) {
        const a = r.args ?? getArgumentValues(r.field, r.node, variables);
        read = {
          // Frozen: the read plans may remember its key.
          params: Object.freeze({ ...paramsOf(cols, a), fields: fieldsOf(dc, r.selection, fragments) }),
          nested: direct.relations.map(({ r: x, makeRow }) => ({ ...nestedQuery(dc, x, fragments), as: x.key, makeRow })),
        };
        if (fixed) keepRead(direct, dc, read);
      }
      return data.listNested(dc, t, read.params, read.nested, r.shapeKey, direct.makeRow);
    }
    return runRootLevels(dc, r, variables);
  };

  /** The value of a root field read level by level. */
  const runRootLevels = async (dc: DataContext, r: Exclude<RootOutput, { kind: 'typename' }>, variables: Record<string, unknown>): Promise<unknown> => {
    const { t, cols } = r.selection.tt;
    const a = r.args ?? getArgumentValues(r.field, r.node, variables);
    const fields = fieldsOf(dc, r.selection, fragments);
    const { relations } = r.selection;
    let rows: Row[];
    if (r.kind === 'list' && relations.length) {
      // The page and its first level of relations in one read plan, as REST's nested lists.
      rows = await data.listNested(dc, t, { ...paramsOf(cols, a), fields }, relations.map((x) => nestedQuery(dc, x, fragments)), r.shapeKey);
      await loadBelow(dc, relations, rows, fragments);
    } else {
      rows = r.kind === 'list'
        ? await data.list(dc, t, { ...paramsOf(cols, a), fields })
        : [r.kind === 'read' ? await data.read(dc, t, a.id as string, { fields }) : await data.findOne(dc, t, { ...paramsOf(cols, a), fields })];
      await loadRelations(dc, r.selection, rows, fragments);
    }
    return r.kind === 'list' ? rows.map(r.shape) : r.shape(rows[0]!);
  };

  const only = roots.length === 1 ? roots[0]! : undefined;
  return {
    run(dc, inputs) {
      let variables: Record<string, unknown> = {};
      if (variableDefinitions.length) {
        const coerced = getVariableValues(schema, variableDefinitions, inputs ?? {});
        if (coerced.errors) throw coerced.errors[0];
        variables = coerced.coerced;
      }
      if (only && only.kind !== 'typename') return runRoot(dc, only, variables).then((value) => ({ data: { [only.key]: value } }));
      return Promise.all(roots.map((r) => (r.kind === 'typename' ? queryType.name : runRoot(dc, r, variables)))).then((values) => {
        const out: Row = {};
        for (let i = 0; i < roots.length; i++) out[roots[i]!.key] = values[i];
        return { data: out };
      });
    },
  };
}
