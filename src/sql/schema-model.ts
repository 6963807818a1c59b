/**
 * Builds the SchemaModel from what an engine's catalogue says: aliases by inflection, logical
 * types, primary keys, belongs-to / has-many relations from foreign keys, many-to-many through
 * junction tables (exactly two foreign keys whose columns cover the primary key), display
 * columns. Internal tables (nc_*, xc_*, _evolutions) never appear.
 */
import type { ColumnModel, RelationModel, RoutineModel, SchemaModel, TableModel } from './model';
import type { RawForeignKey, RawSchema } from './introspection';
import { lookupNative, type TypeMap } from './type-map';
import { inflect, type Inflection } from '../lib/inflection';

/** Tables Tablo keeps for itself in a project database. */
export const isInternalTable = (name: string) => /^(nc_|xc_)/i.test(name) || name === '_evolutions';

const TEXT_TYPES = new Set(['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'SingleSelect']);

/**
 * The column that names a row in links and pickers: the first text-like column outside the
 * primary key; else the (first) key column; else, for a table without a key, its first column.
 */
export function displayColumnOf(columns: ColumnModel[]): string | null {
  const text = columns.find((c) => !c.pk && TEXT_TYPES.has(c.uidt));
  const key = [...columns].filter((c) => c.pk).sort((a, b) => (a.pkOrder ?? 0) - (b.pkOrder ?? 0))[0];
  return (text ?? key ?? columns[0])?.cn ?? null;
}

interface Fk {
  name: string;
  table: string;
  refTable: string;
  columns: string[];
  refColumns: string[];
}

function groupFks(raw: RawForeignKey[]): Fk[] {
  const by = new Map<string, Fk & { pos: number[] }>();
  for (const f of raw) {
    const key = `${f.table}\u0000${f.name}`;
    const fk = by.get(key) ?? { name: f.name, table: f.table, refTable: f.refTable, columns: [], refColumns: [], pos: [] };
    fk.columns.push(f.column);
    fk.refColumns.push(f.refColumn);
    fk.pos.push(f.position);
    by.set(key, fk);
  }
  // Sorted by table and foreign key columns, so alias suffixes do not depend on catalogue order.
  const key = (f: Fk) => `${f.table}\u0000${f.columns.join('\u0001')}`;
  return [...by.values()].map(({ pos: _pos, ...fk }) => fk).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Makes `alias` unique among `taken` by suffixing 2, 3, ... Relations: when a table has two
 * relations of one type to the same table (two foreign keys to one parent), the one whose foreign
 * key columns sort first keeps the plain alias (`Person`), the next is `Person2`, and so on.
 */
function uniqueAlias(alias: string, taken: Set<string>): string {
  let out = alias;
  for (let i = 2; taken.has(out); i++) out = `${alias}${i}`;
  taken.add(out);
  return out;
}

export function buildSchemaModel(
  raw: RawSchema,
  types: TypeMap,
  opts: { inflectionTable?: Inflection; inflectionColumn?: Inflection; schema?: string } = {},
): SchemaModel {
  const it = opts.inflectionTable ?? 'camelize';
  const ic = opts.inflectionColumn ?? 'camelize';
  const visible = raw.tables.filter((t) => !isInternalTable(t.name));
  const names = new Set(visible.map((t) => t.name));
  const tableAliases = new Set<string>();

  const tables = new Map<string, TableModel>();
  for (const t of visible) {
    const pkCols = raw.pks.filter((k) => k.table === t.name).sort((a, b) => a.position - b.position);
    const uniques = new Set(raw.uniques.filter((u) => u.table === t.name).map((u) => u.column));
    const colAliases = new Set<string>();
    const columns: ColumnModel[] = raw.columns
      .filter((c) => c.table === t.name)
      .sort((a, b) => a.position - b.position)
      .map((c) => {
        const { uidt, kind } = lookupNative(types, c.type);
        const pkIndex = pkCols.findIndex((k) => k.column === c.name);
        return {
          cn: c.name,
          _cn: uniqueAlias(inflect(c.name, ic), colAliases),
          dt: c.type,
          dtx: c.fullType,
          uidt: c.ai && pkIndex >= 0 ? 'ID' : c.enumValues?.length ? (uidt === 'MultiSelect' ? 'MultiSelect' : 'SingleSelect') : uidt,
          kind,
          pk: pkIndex >= 0,
          pkOrder: pkIndex >= 0 ? pkIndex : undefined,
          ai: c.ai,
          nullable: c.nullable,
          default: c.default,
          length: c.length,
          precision: c.precision,
          scale: c.scale,
          enumValues: c.enumValues,
          unique: uniques.has(c.name) || undefined,
        };
      });
    tables.set(t.name, {
      tn: t.name,
      _tn: uniqueAlias(inflect(t.name, it), tableAliases),
      schema: opts.schema,
      type: t.type,
      columns,
      pks: pkCols.map((k) => k.column),
      displayColumn: displayColumnOf(columns),
      relations: [],
      ...(t.broken ? { broken: t.broken } : {}),
    });
  }

  const fks = groupFks(raw.fks).filter((f) => names.has(f.table) && names.has(f.refTable));
  const relAliases = new Map<string, Set<string>>();
  const addRelation = (t: TableModel, r: Omit<RelationModel, 'alias'>, base: string) => {
    const taken = relAliases.get(`${t.tn}:${r.type}`) ?? new Set<string>();
    relAliases.set(`${t.tn}:${r.type}`, taken);
    t.relations.push({ ...r, alias: uniqueAlias(base, taken) });
  };

  for (const fk of fks) {
    const child = tables.get(fk.table)!;
    const parent = tables.get(fk.refTable)!;
    const common = { childTable: child.tn, childColumns: fk.columns, parentTable: parent.tn, parentColumns: fk.refColumns, fkName: fk.name };
    addRelation(child, { type: 'bt', tn: child.tn, rtn: parent.tn, ...common }, parent._tn);
    addRelation(parent, { type: 'hm', tn: parent.tn, rtn: child.tn, ...common }, child._tn);
  }

  // Junctions: exactly two foreign keys whose columns together cover the whole primary key.
  for (const t of tables.values()) {
    const own = fks.filter((f) => f.table === t.tn);
    if (own.length !== 2 || t.pks.length === 0) continue;
    const covered = new Set(own.flatMap((f) => f.columns));
    if (!t.pks.every((k) => covered.has(k)) || covered.size !== t.pks.length) continue;
    t.isJunction = true;
    const [a, b] = own as [Fk, Fk];
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const self = tables.get(from.refTable)!;
      const target = tables.get(to.refTable)!;
      addRelation(
        self,
        {
          type: 'mm',
          tn: self.tn,
          rtn: target.tn,
          childTable: t.tn,
          childColumns: from.columns,
          parentTable: self.tn,
          parentColumns: from.refColumns,
          junction: { tn: t.tn, columns: from.columns, refColumns: from.refColumns, targetColumns: to.columns, targetRefColumns: to.refColumns },
        },
        target._tn,
      );
    }
  }

  const routines = (list: RawSchema['functions'], kind: RoutineModel['kind']): RoutineModel[] =>
    list.map((r) => ({ name: r.name, kind, definition: r.definition }));
  return {
    tables: [...tables.values()],
    functions: routines(raw.functions, 'function'),
    procedures: routines(raw.procedures, 'procedure'),
    sequences: routines(raw.sequences, 'sequence'),
  };
}
