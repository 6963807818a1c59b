/** Dashboard reads of one project: environments, object lists, table metadata, UI abilities. */
import { dashboardOp } from './projects';
import { http } from './http';

export interface TableSummary { tn: string; _tn: string; type: 'table' | 'view'; pks: string[]; isJunction: boolean; /** Whether the caller may add rows to the table (and import into it). */ canCreate?: boolean; /** Why a view cannot be read (a table or column it uses is gone). */ broken?: string }
export interface RoutineSummary { name: string; kind: string; definition: string | null }
export interface EnvDb { dbAlias: string; client: string; isXcdb: boolean }
export interface EnvList { workingEnv: string; envs: Record<string, { active: boolean; dbs: EnvDb[] }> }
/** A select choice with its colour (`#rrggbb`). */
export interface SelectChoice { title: string; color: string }
/** Options of a column's logical type, with its defaults (currency code, precision, rating max, duration format, choices, file limits, DateTime touch). */
export interface ColumnTypeMeta {
  currency?: string;
  locale?: string;
  precision?: number;
  max?: number;
  icon?: string;
  format?: 'h:mm' | 'h:mm:ss' | 'h:mm:ss.s';
  options?: SelectChoice[];
  maxFiles?: number;
  accept?: string[];
  /** DateTime: set to the time of each change of the row. */
  touch?: boolean;
}
export interface ColumnMeta { cn: string; _cn: string; uidt: string; kind: string; dt: string; pk: boolean; ai: boolean; nullable: boolean; enumValues: string[] | null; hidden: boolean; default?: string | null; length?: number | null; unique?: boolean; dtxp?: string | null; meta?: ColumnTypeMeta | null }
/** A column kept in metadata and computed in the list query (formula, rollup, lookup). */
export interface VirtualMeta {
  _cn: string;
  uidt: 'Formula' | 'Rollup' | 'Lookup';
  formula?: { text: string; error?: string };
  rollup?: { relation: string; column: string; fn: string };
  lookup?: { relation: string; column: string };
  /** Why the column no longer works (a column or relation it uses was dropped). */
  error?: string;
  /** The type its numbers are shown as: a sum of a Currency column is currency. */
  shows?: { uidt: string; meta: ColumnTypeMeta | null };
}
export interface RelationMeta { type: 'hm' | 'bt' | 'mm'; alias: string; table: string; columns: string[]; refColumns: string[]; targetPks: string[]; targetDisplay: string | null; targetIsJunction: boolean }
export interface TableMeta { tn: string; _tn: string; type: 'table' | 'view'; pks: string[]; displayColumn: string | null; readOnly: string | null; canUpdate?: string[]; canCreate?: boolean; canCreateColumns?: string[]; canDelete?: boolean; columns: ColumnMeta[]; relations: RelationMeta[]; virtuals?: VirtualMeta[] }
export interface UiAbility { maxTabs: number; maxTables: number; darkTheme: boolean }

export const dashboardApi = {
  envs: (projectId: string) => dashboardOp<EnvList>('projectEnvList', { projectId }),
  tables: async (projectId: string, dbAlias: string, includeM2M = false) => (await dashboardOp<{ data: { list: TableSummary[] } }>('tableList', { projectId, dbAlias, args: includeM2M ? { includeM2M } : {} })).data.list,
  views: async (projectId: string, dbAlias: string) => (await dashboardOp<{ data: { list: TableSummary[] } }>('viewList', { projectId, dbAlias })).data.list,
  routines: async (projectId: string, dbAlias: string, api: 'functionList' | 'procedureList' | 'sequenceList') =>
    (await dashboardOp<{ data: { list: RoutineSummary[] } }>(api, { projectId, dbAlias })).data.list,
  tableMeta: (projectId: string, dbAlias: string, tn: string) => dashboardOp<TableMeta>('tableMeta', { projectId, dbAlias, args: { tn } }),
  uiAbility: () => http<UiAbility>('/ui_ability'),
};
