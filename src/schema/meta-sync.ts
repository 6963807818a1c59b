/**
 * What changed between two reads of a database schema: the answer of the metaSync operation.
 */
import type { ColumnModel, SchemaModel } from './model';

export interface TableChange {
  tn: string;
  addedColumns: string[];
  removedColumns: string[];
  changedColumns: string[];
}

export interface SyncReport {
  added: string[];
  removed: string[];
  changed: TableChange[];
}

const columnSignature = (c: ColumnModel) =>
  JSON.stringify([c.dt, c.dtx ?? null, c.nullable, c.pk, c.ai, c.default, c.length ?? null, c.precision ?? null, c.scale ?? null]);

export function diffSchemas(before: SchemaModel | undefined, after: SchemaModel): SyncReport {
  const old = new Map((before?.tables ?? []).map((t) => [t.tn, t]));
  const now = new Map(after.tables.map((t) => [t.tn, t]));
  const report: SyncReport = { added: [], removed: [], changed: [] };
  for (const tn of now.keys()) if (!old.has(tn)) report.added.push(tn);
  for (const tn of old.keys()) if (!now.has(tn)) report.removed.push(tn);
  for (const [tn, t] of now) {
    const o = old.get(tn);
    if (!o) continue;
    const oc = new Map(o.columns.map((c) => [c.cn, c]));
    const nc = new Map(t.columns.map((c) => [c.cn, c]));
    const change: TableChange = {
      tn,
      addedColumns: [...nc.keys()].filter((c) => !oc.has(c)),
      removedColumns: [...oc.keys()].filter((c) => !nc.has(c)),
      changedColumns: [...nc.entries()].filter(([c, col]) => oc.has(c) && columnSignature(oc.get(c)!) !== columnSignature(col)).map(([c]) => c),
    };
    if (change.addedColumns.length || change.removedColumns.length || change.changedColumns.length) report.changed.push(change);
  }
  report.added.sort();
  report.removed.sort();
  return report;
}
