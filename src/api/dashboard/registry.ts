/** Every dashboard operation by name: one handler each. */
import type { DashboardOp } from './op';
import { projectCreateByWeb } from './ops/project-create';
import { testConnection } from './ops/test-connection';
import { projectList } from './ops/project-list';
import { projectDelete, projectRestart, projectStart, projectStop } from './ops/project-lifecycle';
import { projectRename } from './ops/project-rename';
import { functionList, procedureList, sequenceList, tableList, viewList } from './ops/object-lists';
import { projectChangeEnv, projectDbAdd, projectDbRemove, projectEnvList } from './ops/environments';
import { metaSync } from './ops/meta-sync';
import { modelUpdate } from './ops/model-update';
import { tableMeta } from './ops/table-meta';
import { rawSql } from './ops/raw-sql';
import { aclList, aclSave } from './ops/acl';
import { disableOrEnableModel, modelVisibilityList } from './ops/model-visibility';
import { virtualColumnCreate, virtualColumnDelete, virtualColumnUpdate } from './ops/virtual-columns';
import { formulaFunctions, formulaValidate } from './ops/formula-ops';
import { tableCreate, tableDelete, tableRename } from './ops/table-changes';
import { columnAdd, columnDelete, columnReorder, columnUpdate } from './ops/column-changes';
import { relationCreate, relationDelete } from './ops/relation-changes';
import { migrationApply, migrationList, migrationRollback } from './ops/migrations';
import { projectCreateByZip, xcMetaTablesExportDbToZip, xcMetaTablesImportZipToLocalFsAndDb, xcMetaTablesReset } from './ops/project-meta';
import { projectDbUpdate, projectEnvRemove } from './ops/connection-update';
import { API_CLIENT_OPS } from './ops/api-client';
import { ROW_ACTIVITY_OPS } from './ops/row-activity';
import { xcApiTokenCreate, xcApiTokenDelete, xcApiTokenList, xcApiTokenUpdate } from './ops/api-tokens';
import { VIEW_OPS } from './ops/views';
import { SHARED_VIEW_OPS } from './ops/shared-views';
import { rawSqlCancel, rawSqlRun } from './ops/sql-client/run';
import { sqlHistoryClear, sqlHistoryList, sqlQueryDelete, sqlQueryList, sqlQuerySave } from './ops/sql-client/queries';
import { sqlClientSchema } from './ops/sql-client/schema';
import { rawSqlRows } from './ops/sql-client/buffers';
import { IMPORT_OPS } from '../transfer/import-ops';

const OPS: DashboardOp[] = [
  projectCreateByWeb,
  testConnection,
  projectList,
  projectStop,
  projectRename,
  projectStart,
  projectRestart,
  projectDelete,
  tableList,
  viewList,
  functionList,
  procedureList,
  sequenceList,
  projectEnvList,
  projectDbAdd,
  projectDbRemove,
  projectChangeEnv,
  metaSync,
  modelUpdate,
  tableMeta,
  xcApiTokenCreate,
  xcApiTokenList,
  xcApiTokenUpdate,
  xcApiTokenDelete,
  rawSql,
  aclList,
  aclSave,
  modelVisibilityList,
  disableOrEnableModel,
  virtualColumnCreate,
  virtualColumnUpdate,
  virtualColumnDelete,
  formulaValidate,
  formulaFunctions,
  tableCreate,
  tableRename,
  tableDelete,
  columnAdd,
  columnUpdate,
  columnDelete,
  columnReorder,
  relationCreate,
  relationDelete,
  migrationList,
  migrationApply,
  migrationRollback,
  xcMetaTablesExportDbToZip,
  xcMetaTablesImportZipToLocalFsAndDb,
  xcMetaTablesReset,
  projectCreateByZip,
  projectDbUpdate,
  projectEnvRemove,
  ...API_CLIENT_OPS,
  ...ROW_ACTIVITY_OPS,
  ...VIEW_OPS,
  ...SHARED_VIEW_OPS,
  rawSqlRun,
  rawSqlCancel,
  sqlQueryList,
  sqlQuerySave,
  sqlQueryDelete,
  sqlHistoryList,
  sqlHistoryClear,
  sqlClientSchema,
  rawSqlRows,
  ...IMPORT_OPS,
];

/** Operations by name; other modules add theirs with registerOps. */
export const DASHBOARD_OPS = new Map<string, DashboardOp>(OPS.map((op) => [op.name, op]));

export function registerOps(ops: DashboardOp[]): void {
  for (const op of ops) DASHBOARD_OPS.set(op.name, op);
}
