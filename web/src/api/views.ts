/**
 * Saved views of a table (xcVirtualTable* operations) and their shared links, as fixed in the API
 * contract section 6. `query_params` holds everything a view remembers.
 */
import { dashboardOp } from './projects';
import type { FormField, RowHeight, ViewField, ViewType } from '../../../common/views';

export { VIEW_TYPES, type ViewType, type ViewField, type FormField, type RowHeight } from '../../../common/views';

/** What a form view shows around its fields. */
export interface FormSpec {
  heading: string;
  subheading: string;
  submitMessage: string;
  redirectUrl?: string;
  fields: FormField[];
}

/** Everything a saved view remembers (api-contract section 6). */
export interface QueryParams {
  where?: string;
  sort?: string;
  fields?: ViewField[];
  rowHeight?: RowHeight;
  /** Kanban lane column; the grid's group-by column. */
  groupBy?: string;
  coverColumn?: string;
  dateColumn?: string;
  endDateColumn?: string;
  form?: FormSpec;
  /** Kanban: lane keys in the order shown ('' is Uncategorized), and the collapsed ones. */
  laneOrder?: string[];
  collapsedLanes?: string[];
  /** Calendar: the range shown (month, week or day). */
  calendarRange?: 'month' | 'week' | 'day';
}

/** A saved view as xcVirtualTableList answers it. */
export interface SavedView {
  id: string;
  title: string;
  type: ViewType;
  tn: string;
  order: number;
  query_params: QueryParams;
  /** The table's own view (made by the server, not deleted). */
  is_default?: boolean;
}

/** A shared link of a view (never its password). */
export interface SharedLink {
  uuid: string;
  view_id: string;
  title: string;
  type: ViewType;
  url: string;
  hasPassword: boolean;
  allowCsvDownload?: boolean;
}

/** Where the calls apply: a project and one of its databases. */
export interface ViewScope {
  projectId: string;
  dbAlias: string;
}

const op = <T>(scope: ViewScope, api: string, args: unknown, keepalive?: boolean) => dashboardOp<T>(api, { projectId: scope.projectId, dbAlias: scope.dbAlias, args, keepalive });

/** Saved views and shared links of one project database. */
export const viewsApi = {
  list: async (scope: ViewScope, tn: string) => (await op<{ data: { list: SavedView[] } }>(scope, 'xcVirtualTableList', { tn })).data.list,
  create: (scope: ViewScope, args: { tn: string; title: string; type: ViewType; copy_from_id?: string; query_params?: QueryParams }) =>
    op<{ id: string; title: string; type: ViewType }>(scope, 'xcVirtualTableCreate', args),
  /** `keepalive`: the save may finish after the page is left. */
  update: (scope: ViewScope, args: { id: string; title?: string; order?: number; query_params?: QueryParams }, keepalive?: boolean) => op<{ ok: true }>(scope, 'xcVirtualTableUpdate', args, keepalive),
  remove: (scope: ViewScope, id: string) => op<{ ok: true }>(scope, 'xcVirtualTableDelete', { id }),
  share: (scope: ViewScope, args: { view_id: string; password?: string; allowCsvDownload?: boolean }) => op<{ uuid: string; url: string }>(scope, 'createSharedViewLink', args),
  setPassword: (scope: ViewScope, uuid: string, password: string | null) => op<{ ok: true }>(scope, 'updateSharedViewLinkPassword', { uuid, password }),
  setCsv: (scope: ViewScope, uuid: string, allowCsvDownload: boolean) => op<{ ok: true }>(scope, 'updateSharedViewLink', { uuid, allowCsvDownload }),
  links: async (scope: ViewScope, tn?: string) => (await op<{ data: { list: SharedLink[] } }>(scope, 'listSharedViewLinks', tn ? { tn } : {})).data.list,
  unshare: (scope: ViewScope, uuid: string) => op<{ ok: true }>(scope, 'deleteSharedViewLink', { uuid }),
};
