/**
 * Keeps stored virtual columns in step with schema changes made through Tablo: a renamed column
 * or table is renamed in formulas, rollups and lookups; a dropped column or table marks the
 * virtual columns that used it as invalid (their error says why; saving them again clears it, and
 * so does a rollback or re-apply of a migration that brings the column or table back).
 */
import { modelsRepo, type StoredVirtual, type TableUserMeta } from '../meta/models-repo';
import { onSchemaEvent, type SchemaEvent } from './schema-events';
import { refersTo, renameRefs } from './formula/formula-text';
import type { MetaStore } from '../meta/store';
import type { TableModel } from '../sql/model';

type Change = (tn: string, v: StoredVirtual) => StoredVirtual;

/** Applies `change` to every stored virtual column of the project database; saves changed tables. */
async function rewrite(e: Pick<SchemaEvent, 'meta' | 'projectId' | 'dbAlias'>, change: Change, saved?: () => void): Promise<Map<string, TableUserMeta>> {
  const repo = modelsRepo(e.meta);
  const metas = await repo.all(e.projectId, e.dbAlias);
  for (const [tn, m] of metas) {
    if (!m.virtuals?.length) continue;
    const before = JSON.stringify(m.virtuals);
    const virtuals = m.virtuals.map((v) => change(tn, structuredClone(v)));
    if (JSON.stringify(virtuals) === before) continue;
    m.virtuals = virtuals;
    await repo.set(e.projectId, e.dbAlias, tn, m);
    saved?.();
  }
  return metas;
}

const specOf = (v: StoredVirtual) => v.rollup ?? v.lookup;
const columnGone = (cn: string) => `Column '${cn}' was deleted`;
const tableGone = (tn: string) => `Table '${tn}' was deleted`;

/** Rewrites or invalidates stored virtual columns for one schema event. */
export async function followSchemaEvent(e: SchemaEvent): Promise<void> {
  switch (e.kind) {
    case 'columnRenamed':
      await rewrite(e, (tn, v) => {
        if (v.formula && tn === e.tn) v.formula.expr = renameRefs(v.formula.expr, 'c', e.from, e.to);
        const s = specOf(v);
        if (s) {
          if (s.rel.rtn === e.tn && s.cn === e.from) s.cn = e.to;
          const viaOnChild = (s.rel.type === 'hm' && s.rel.rtn === e.tn) || (s.rel.type === 'bt' && tn === e.tn);
          if (viaOnChild) s.rel.via = s.rel.via.map((c) => (c === e.from ? e.to : c));
        }
        return v;
      });
      return;
    case 'columnDropped':
      await rewrite(e, (tn, v) => {
        const gone = columnGone(e.cn);
        if (v.formula && tn === e.tn && refersTo(v.formula.expr, 'c', e.cn)) v.formula.error = gone;
        const s = specOf(v);
        if (s && s.rel.rtn === e.tn && s.cn === e.cn) v.error = gone;
        return v;
      });
      return;
    case 'tableRenamed': {
      const metas = await rewrite(e, (_tn, v) => {
        const s = specOf(v);
        if (s) {
          if (s.rel.rtn === e.from) s.rel.rtn = e.to;
          if (s.rel.type === 'mm') s.rel.via = s.rel.via.map((x) => (x === e.from ? e.to : x));
        }
        return v;
      });
      // The renamed table's own virtual columns follow it to its new name.
      const own = metas.get(e.from);
      if (own?.virtuals?.length) {
        const repo = modelsRepo(e.meta);
        const target = metas.get(e.to) ?? {};
        if (!target.virtuals?.length) await repo.set(e.projectId, e.dbAlias, e.to, { ...target, virtuals: own.virtuals });
        const { virtuals: _moved, ...rest } = own;
        await repo.set(e.projectId, e.dbAlias, e.from, rest);
      }
      return;
    }
    case 'tableDropped':
      await rewrite(e, (_tn, v) => {
        const s = specOf(v);
        if (s && (s.rel.rtn === e.tn || (s.rel.type === 'mm' && s.rel.via.includes(e.tn)))) v.error = tableGone(e.tn);
        return v;
      });
  }
}

/**
 * After migrations ran (a rollback of a drop, an apply of an add): virtual columns marked invalid
 * because a column or table was deleted work again once it exists again. Answers whether any changed.
 */
export async function reviveVirtuals(meta: MetaStore, projectId: string, dbAlias: string, tables: readonly TableModel[]): Promise<boolean> {
  const byTn = new Map(tables.map((t) => [t.tn, t]));
  const hasColumn = (tn: string, cn: string) => !!byTn.get(tn)?.columns.some((c) => c.cn === cn);
  let changed = false;
  const back = (error: string, s: NonNullable<ReturnType<typeof specOf>>) =>
    (error === columnGone(s.cn) && hasColumn(s.rel.rtn, s.cn)) || [s.rel.rtn, ...s.rel.via].some((x) => error === tableGone(x) && byTn.has(x));
  const change: Change = (tn, v) => {
    const error = v.formula?.error;
    if (error && byTn.get(tn)?.columns.some((c) => error === columnGone(c.cn))) delete v.formula!.error;
    const s = specOf(v);
    if (v.error && s && back(v.error, s)) delete v.error;
    return v;
  };
  await rewrite({ meta, projectId, dbAlias }, change, () => (changed = true));
  return changed;
}

let registered = false;

/** Starts following schema events (once per process). */
export function followSchemaEvents(): void {
  if (registered) return;
  registered = true;
  onSchemaEvent(followSchemaEvent);
}
