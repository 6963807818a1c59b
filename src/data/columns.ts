/** Column look-up through the model: API alias or SQL name, else 400 `Column '<name>' not found`. */
import type { ColumnModel, TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';

export function findColumn(t: TableModel, name: string): ColumnModel | undefined {
  return t.columns.find((c) => c._cn === name) ?? t.columns.find((c) => c.cn === name);
}

export function resolveColumn(t: TableModel, name: string): ColumnModel {
  const c = findColumn(t, name.trim());
  if (!c) throw badRequest(`Column '${name.trim()}' not found`);
  return c;
}
