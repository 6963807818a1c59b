/** Roles Management (data rights per table and role), Meta Management (tree visibility per role) and raw SQL. */
import { dashboardOp } from './projects';

/** All columns (true), none (false) or the listed column SQL names. */
export type ColumnGrant = boolean | string[];
export interface TableRule { read: ColumnGrant; create: ColumnGrant; update: ColumnGrant; delete: boolean; where: string | null }
export interface AclTable { tn: string; _tn: string; type: 'table' | 'view'; columns: { cn: string; _cn: string }[]; rules: Record<string, TableRule & { stored: boolean }> }
export interface ModelVisibility { type: 'table' | 'view' | 'function' | 'procedure'; name: string; title: string; enabled: Record<string, boolean> }

export const aclApi = {
  list: (projectId: string, dbAlias: string) => dashboardOp<{ roles: string[]; list: AclTable[] }>('aclList', { projectId, dbAlias }),
  save: (projectId: string, dbAlias: string, tn: string, role: string, rule: TableRule | null) => dashboardOp('aclSave', { projectId, dbAlias, args: { tn, role, rule } }),
  visibility: (projectId: string, dbAlias: string) => dashboardOp<{ roles: string[]; list: ModelVisibility[] }>('modelVisibilityList', { projectId, dbAlias }),
  setVisible: (projectId: string, dbAlias: string, o: Pick<ModelVisibility, 'type' | 'name'>, role: string, enabled: boolean) =>
    dashboardOp('disableOrEnableModel', { projectId, dbAlias, args: { type: o.type, name: o.name, role, enabled } }),
  rawSql: (projectId: string, dbAlias: string, sql: string) =>
    dashboardOp<{ rows: Record<string, unknown>[]; affected: number; truncated: boolean }>('rawSql', { projectId, dbAlias, args: { sql } }),
};
