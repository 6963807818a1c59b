/**
 * A GraphQL schema per project database, built from its schema model. Per table `T`: queries
 * TList, TRead, TExists, TFindOne, TCount, TDistinct, TGroupBy, TAggregate, TDistribution;
 * mutations TCreate, TUpdate, TDelete and their Bulk forms; inputs TInput and ConditionT; a
 * read-only field per virtual column (formula, rollup, lookup);
 * relation fields CList/CCount (has-many), PRead (belongs-to), MMMList (many-to-many), batched
 * per request. SQL views get queries only; tables without a primary key get no TRead, TExists or
 * mutations. Every resolver calls the data-access core, as REST does. Naming rules: names.ts.
 */
import {
  GraphQLBoolean, GraphQLFloat, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  GraphQLSchema, GraphQLString, type GraphQLFieldConfigMap, type GraphQLResolveInfo,
} from 'graphql';
import type { SchemaModel, TableModel } from '../../schema/model';
import type { Engine } from '../../sql/dialect';
import * as data from '../../data/records-service';
import { notFound } from '../../lib/errors';
import { JSONScalar } from './scalars';
import { scalarOf } from './column-types';
import { tableTypeNames, uniqueNames } from './names';
import { paramsOf, stepsOf, toBody, type FieldColumns } from './args';
import { countRelated, loadRelated, type GqlContext, type RelationArgs } from './relation-loaders';
import { MAX_DISTRIBUTION_STEPS } from './limits';
import { selectedFields, type RelationKeys } from './selected-columns';
import { prefetched, prefetchRelations, type RelationField } from './prefetch';
import { allColumns } from '../../data/columns';
import { assertReadable } from '../../data/read-scope';
import type { DataContext } from '../../data/data-context';

export type { GqlContext } from './relation-loaders';

type Row = Record<string, unknown>;
type Args = Record<string, unknown>;

const listArgs = {
  where: { type: GraphQLString, description: 'The where language, e.g. (col,eq,1)~and(col2,gt,2)' },
  limit: { type: GraphQLInt, description: 'Rows per page: default 25, at most the server maximum' },
  offset: { type: GraphQLInt },
  sort: { type: GraphQLString, description: 'Comma list of columns, - for descending' },
};

const ConditionField = new GraphQLInputObjectType({
  name: 'ConditionField',
  description: 'Comparisons on one column (values compared as the column type)',
  fields: {
    eq: { type: JSONScalar }, neq: { type: JSONScalar }, gt: { type: JSONScalar }, ge: { type: JSONScalar }, lt: { type: JSONScalar }, le: { type: JSONScalar },
    like: { type: GraphQLString }, nlike: { type: GraphQLString }, in: { type: new GraphQLList(JSONScalar) }, nin: { type: new GraphQLList(JSONScalar) },
    is: { type: GraphQLString }, isnot: { type: GraphQLString },
  },
});

/** What the schema knows of one table's types: read by the plain executor (plain-executor.ts) too. */
export interface TableTypes {
  t: TableModel;
  name: string;
  object: GraphQLObjectType<Row, GqlContext>;
  input?: GraphQLInputObjectType;
  condition: GraphQLInputObjectType;
  /** GraphQL field name -> column, for rows, inputs and conditions. */
  cols: FieldColumns;
  /** Relation field name -> the columns it joins on (filled when the fields are built). */
  relKeys: RelationKeys;
  /** Relation field name -> what a list loads with its page (filled when the fields are built). */
  relations: Map<string, RelationField>;
}

/**
 * The columns the rows of `tt` under this field need (see selected-columns.ts). A selection naming
 * a column the caller may not read is refused (FORBIDDEN naming it): the schema is the same for
 * every role, rights are applied here, at execution.
 */
const fieldsFor = (tt: TableTypes, info: GraphQLResolveInfo, dc: DataContext) => {
  const s = selectedFields(info.fieldNodes, info.fragments, tt.cols, tt.relKeys);
  assertReadable(dc, tt.t, s.asked);
  return s.fields;
};

/** The reads a root query field makes, for the plain executor. */
export type RootRead = 'list' | 'read' | 'findOne';

/** The tables behind a built schema: root read fields and object types by name. */
export interface SchemaTables {
  roots: Map<string, { kind: RootRead; tt: TableTypes }>;
  types: Map<string, TableTypes>;
}

const tablesOfSchema = new WeakMap<GraphQLSchema, SchemaTables>();

/** The tables behind a schema built here (undefined for any other schema). */
export const schemaTables = (schema: GraphQLSchema): SchemaTables | undefined => tablesOfSchema.get(schema);

/** Builds the schema of one project database (`engine` decides which integers fit GraphQL's Int). */
export function buildGraphqlSchema(model: SchemaModel, engine: Engine): GraphQLSchema {
  // A view that cannot be read has no columns, hence no type: it is left out.
  const tables = model.tables.filter((t) => !t.broken);
  const names = tableTypeNames(tables.map((t) => t._tn));
  const byTn = new Map<string, TableTypes>();
  const typesOf = (tn: string) => byTn.get(tn)!;

  tables.forEach((t, i) => {
    const { object: name, input: inputName, condition: conditionName } = names[i]!;
    // Columns, then virtual columns (read-only: in rows and conditions, never in inputs).
    const columns = allColumns(t);
    const colNames = uniqueNames(columns.map((c) => c._cn));
    const cols: FieldColumns = new Map(columns.map((c, j) => [colNames[j]!, c]));
    const inputNames = colNames.filter((n) => !cols.get(n)!.virtual);
    const condition: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: conditionName,
      description: `A filter on ${t._tn}: columns compared, combined with _or, _and, _not`,
      fields: () => ({
        ...Object.fromEntries(colNames.map((n) => [n, { type: ConditionField }])),
        _or: { type: new GraphQLList(condition) },
        _and: { type: new GraphQLList(condition) },
        _not: { type: condition },
      }),
    });
    const input =
      t.type === 'table' && t.pks.length
        ? new GraphQLInputObjectType({ name: inputName, description: `Values of a ${t._tn} row`, fields: Object.fromEntries(inputNames.map((n) => [n, { type: scalarOf(cols.get(n)!, engine) }])) })
        : undefined;
    const tt: TableTypes = { t, name, cols, condition, input, relKeys: new Map(), relations: new Map(), object: undefined as never };
    tt.object = new GraphQLObjectType<Row, GqlContext>({
      name,
      description: t.type === 'view' ? `SQL view ${t.tn}` : `Table ${t.tn}`,
      fields: () => objectFields(tt, colNames),
    });
    byTn.set(t.tn, tt);
  });

  /** Columns, then relation fields (names made unique after the columns). */
  function objectFields(tt: TableTypes, colNames: string[]): GraphQLFieldConfigMap<Row, GqlContext> {
    const fields: GraphQLFieldConfigMap<Row, GqlContext> = {};
    for (const n of colNames) {
      const c = tt.cols.get(n)!;
      // Rows are keyed by column alias: where the field has the alias's name the default resolver reads
      // it, which compiled queries inline instead of calling a function per value.
      fields[n] = n === c._cn ? { type: scalarOf(c, engine) } : { type: scalarOf(c, engine), resolve: (row) => row[c._cn] };
    }
    const rels = tt.t.relations.filter((r) => byTn.has(r.rtn));
    const relNames = uniqueNames(
      rels.flatMap((r) => {
        const target = typesOf(r.rtn).name;
        return r.type === 'hm' ? [`${target}List`, `${target}Count`] : r.type === 'bt' ? [`${target}Read`] : [`${target}MMList`];
      }),
      new Set(colNames),
    );
    let i = 0;
    for (const r of rels) {
      const target = typesOf(r.rtn);
      const related = (row: Row, a: Args, ctx: GqlContext, info: GraphQLResolveInfo) => {
        const pre = prefetched(row, info);
        return pre ? pre.value : loadRelated(ctx, info.fieldNodes, tt.t, r, target.t, a as RelationArgs, () => fieldsFor(target, info, ctx.dc), row);
      };
      const relation: RelationField = {
        rel: r,
        target: target.t,
        fields: (nodes, fragments, dc) => {
          const sel = selectedFields(nodes, fragments, target.cols, target.relKeys);
          assertReadable(dc, target.t, sel.asked);
          return sel.fields;
        },
      };
      const keys = r.type === 'hm' ? r.parentColumns : r.type === 'bt' ? r.childColumns : r.junction!.refColumns;
      if (r.type === 'bt') {
        tt.relKeys.set(relNames[i]!, keys);
        tt.relations.set(relNames[i]!, relation);
        fields[relNames[i++]!] = { type: target.object, description: `The ${target.t._tn} row this row belongs to`, resolve: (row, a, ctx, info) => related(row, a, ctx, info) };
        continue;
      }
      tt.relKeys.set(relNames[i]!, keys);
      tt.relations.set(relNames[i]!, relation);
      fields[relNames[i++]!] = {
        type: new GraphQLList(target.object),
        description: r.type === 'hm' ? `${target.t._tn} rows pointing at this row` : `${target.t._tn} rows linked through ${r.junction?.tn}`,
        args: listArgs,
        resolve: (row, a, ctx, info) => related(row, a, ctx, info),
      };
      if (r.type === 'hm') {
        tt.relKeys.set(relNames[i]!, keys);
        fields[relNames[i++]!] = {
          type: GraphQLInt,
          description: `Number of ${target.t._tn} rows pointing at this row`,
          args: { where: listArgs.where },
          resolve: (row, a, ctx, info) => countRelated(ctx, info.fieldNodes, tt.t, r, target.t, a as RelationArgs, row),
        };
      }
    }
    return fields;
  }

  const query: GraphQLFieldConfigMap<unknown, GqlContext> = {};
  const index: SchemaTables = { roots: new Map(), types: new Map() };
  const mutation: GraphQLFieldConfigMap<unknown, GqlContext> = {};
  const idArg = { id: { type: new GraphQLNonNull(GraphQLString), description: 'Primary key; composite keys joined by ___' } };

  for (const tt of byTn.values()) {
    const { t, name, object, cols } = tt;
    const filter = { where: listArgs.where, condition: { type: tt.condition }, conditionGraph: { type: JSONScalar, description: 'A filter across relations, as REST conditionGraph' } };
    const p = (a: Args) => paramsOf(cols, a);
    index.types.set(name, tt);
    index.roots.set(`${name}List`, { kind: 'list', tt }).set(`${name}FindOne`, { kind: 'findOne', tt });
    if (t.pks.length) index.roots.set(`${name}Read`, { kind: 'read', tt });
    query[`${name}List`] = {
      type: new GraphQLList(object),
      args: { ...listArgs, ...filter },
      resolve: async (_, a, ctx, info) => {
        const rows = await data.list(ctx.dc, t, { ...p(a), fields: fieldsFor(tt, info, ctx.dc) });
        await prefetchRelations(ctx, t, rows, info, tt.relations);
        return rows;
      },
    };
    query[`${name}FindOne`] = { type: object, args: { ...filter, sort: listArgs.sort }, resolve: (_, a, { dc }, info) => data.findOne(dc, t, { ...p(a), fields: fieldsFor(tt, info, dc) }) };
    query[`${name}Count`] = { type: GraphQLInt, args: filter, resolve: async (_, a, { dc }) => (await data.count(dc, t, p(a))).count };
    query[`${name}Distinct`] = {
      type: new GraphQLList(object),
      args: { column_name: { type: new GraphQLNonNull(GraphQLString) }, fields: { type: GraphQLString, description: 'More columns: distinct combinations' }, ...listArgs, ...filter },
      resolve: (_, a, { dc }, info) => (fieldsFor(tt, info, dc), data.distinct(dc, t, { ...p(a), cn: a.column_name as string })),
    };
    query[`${name}GroupBy`] = {
      type: new GraphQLList(JSONScalar),
      description: '[{ ...fields, count }], most frequent first unless sorted',
      args: { fields: { type: new GraphQLNonNull(GraphQLString) }, having: { type: GraphQLString, description: 'The where language over the groups: a grouped column or count, (count,gt,1)' }, ...listArgs, ...filter },
      resolve: (_, a, { dc }) => data.groupBy(dc, t, { ...p(a), having: (a.having as string | undefined) ?? undefined }),
    };
    query[`${name}Aggregate`] = {
      type: new GraphQLList(JSONScalar),
      description: '[{ min, max, avg, sum, count }] of one column, per group of fields when given',
      args: { column_name: { type: new GraphQLNonNull(GraphQLString) }, func: { type: new GraphQLNonNull(GraphQLString), description: 'Comma list of min, max, avg, sum, count' }, fields: { type: GraphQLString }, ...listArgs, ...filter },
      resolve: (_, a, { dc }) => data.aggregate(dc, t, { ...p(a), column_name: a.column_name as string, func: a.func as string }),
    };
    query[`${name}Distribution`] = {
      type: new GraphQLList(JSONScalar),
      description: '[{ range, count }] for consecutive steps (or min..max by step); the last range includes its end',
      args: { column_name: { type: new GraphQLNonNull(GraphQLString) }, min: { type: GraphQLFloat }, max: { type: GraphQLFloat }, step: { type: GraphQLFloat }, steps: { type: GraphQLString }, ...filter },
      resolve: (_, a, { dc }) => data.distribute(dc, t, { ...p(a), column_name: a.column_name as string, steps: stepsOf(a, MAX_DISTRIBUTION_STEPS) }),
    };
    if (t.pks.length) {
      query[`${name}Read`] = { type: object, args: idArg, resolve: (_, a, { dc }, info) => data.read(dc, t, a.id as string, { fields: fieldsFor(tt, info, dc) }) };
      query[`${name}Exists`] = { type: GraphQLBoolean, args: idArg, resolve: (_, a, { dc }) => data.exists(dc, t, a.id as string) };
    }
    if (tt.input) {
      const input = new GraphQLNonNull(tt.input);
      const rows = (a: Args) => (a.data as unknown[]).map((d) => toBody(cols, d));
      mutation[`${name}Create`] = { type: object, args: { data: { type: input } }, resolve: (_, a, { dc }, info) => (fieldsFor(tt, info, dc), data.create(dc, t, toBody(cols, a.data))) };
      mutation[`${name}Update`] = { type: object, args: { ...idArg, data: { type: input } }, resolve: (_, a, { dc }, info) => (fieldsFor(tt, info, dc), data.update(dc, t, a.id as string, toBody(cols, a.data))) };
      mutation[`${name}Delete`] = { type: GraphQLInt, args: idArg, resolve: (_, a, { dc }) => data.remove(dc, t, a.id as string) };
      const bulk = { data: { type: new GraphQLNonNull(new GraphQLList(input)) } };
      mutation[`${name}CreateBulk`] = { type: new GraphQLList(GraphQLString), description: 'All or nothing; answers the created ids', args: bulk, resolve: (_, a, { dc }) => data.bulkCreate(dc, t, rows(a)) };
      mutation[`${name}UpdateBulk`] = { type: GraphQLInt, description: 'Rows carry their primary key; all or nothing; answers the rows updated', args: bulk, resolve: (_, a, { dc }) => data.bulkUpdate(dc, t, rows(a)) };
      mutation[`${name}DeleteBulk`] = { type: GraphQLInt, description: 'Rows carry their primary key; all or nothing; answers the rows deleted', args: bulk, resolve: (_, a, { dc }) => data.bulkDelete(dc, t, rows(a)) };
    }
  }

  const tableNamed = (name: string) => {
    const tt = [...byTn.values()].find((x) => x.name === name || x.t._tn === name || x.t.tn === name);
    if (!tt) throw notFound(`Table '${name}' not found`);
    return tt;
  };
  const m2mArgs = {
    pid: { type: new GraphQLNonNull(GraphQLString), description: 'Id of the parent row' },
    assoc: { type: new GraphQLNonNull(GraphQLString), description: 'The many-to-many target (or junction) table' },
    parent: { type: new GraphQLNonNull(GraphQLString), description: 'The parent table' },
    where: listArgs.where,
  };
  query.m2mNotChildren = {
    type: new GraphQLList(JSONScalar),
    description: 'Rows of the many-to-many target not yet linked to the parent row',
    args: { ...m2mArgs, limit: listArgs.limit, offset: listArgs.offset, sort: listArgs.sort },
    resolve: async (_, a, { dc }) => {
      const parent = tableNamed(a.parent as string);
      return (await data.m2mNotChildren(dc, parent.t, a.assoc as string, a.pid as string, paramsOf(parent.cols, a))).list;
    },
  };
  query.m2mNotChildrenCount = {
    type: GraphQLInt,
    description: 'How many rows m2mNotChildren can list',
    args: m2mArgs,
    resolve: async (_, a, { dc }) => {
      const parent = tableNamed(a.parent as string);
      return (await data.m2mNotChildren(dc, parent.t, a.assoc as string, a.pid as string, { ...paramsOf(parent.cols, a), limit: '1' })).info.count;
    },
  };

  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: Object.keys(mutation).length ? new GraphQLObjectType({ name: 'Mutation', fields: mutation }) : undefined,
  });
  tablesOfSchema.set(schema, index);
  return schema;
}
