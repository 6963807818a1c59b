/**
 * What a view tab hands to the component of its kind: the saved view, the store of the table's
 * views, whether the reader may change views, and how to change this one (saved shortly after).
 */
import type { QueryParams, SavedView } from '../../api/views';
import type { GridPersistence, GridState } from '../grid/grid-store';
import { layoutFields, parseSort, parseWhere, toViewFields } from './view-state';
import type { ViewsStore } from './views-store';

/** A saved view as its kind's component uses it. */
export interface ViewBinding {
  view: SavedView;
  store: ViewsStore;
  /** Owners, creators and editors change views; other readers' changes stay on their screen. */
  canEdit: boolean;
  change(patch: Partial<QueryParams>): void;
}

/**
 * A binding of `view` in `store`; `mayEdit` is asked at each change (the reader's rights may be
 * learnt after the view's components were made).
 */
export function bindView(store: ViewsStore, view: SavedView, mayEdit: () => boolean): ViewBinding {
  return { view, store, canEdit: mayEdit(), change: (patch) => void store.change(view, patch, mayEdit()) };
}

/** The grid state a view holds: filters as the where language, sorts, fields, widths, row height, grouping. */
export function gridStateOf(q: QueryParams, columns: string[]): Partial<GridState> {
  const where = q.where ?? '';
  const filters = parseWhere(where);
  const fields = layoutFields(columns, q.fields);
  return {
    where,
    sort: q.sort ?? '',
    builder: { filters: filters ?? [], sorts: parseSort(q.sort), search: '', raw: filters === null ? where : null },
    order: fields.map((f) => f.name),
    hidden: fields.filter((f) => !f.show).map((f) => f.name),
    widths: Object.fromEntries(fields.map((f) => [f.name, f.width])),
    rowHeight: q.rowHeight ?? 'short',
    groupBy: q.groupBy,
  };
}

/** The query_params a grid state makes. */
export function queryParamsOf(state: GridState, columns: string[]): Partial<QueryParams> {
  const order = state.order?.length ? state.order : columns;
  const fields = layoutFields(columns, order.map((cn) => ({ cn, show: !state.hidden.includes(cn), width: state.widths[cn] })));
  return { where: state.where, sort: state.sort, fields: toViewFields(fields), rowHeight: state.rowHeight ?? 'short', groupBy: state.groupBy || undefined };
}

/** Keeps a grid's state in its saved view. */
export function viewPersistence(binding: ViewBinding, columns: string[]): GridPersistence {
  return {
    load: () => gridStateOf(binding.store.byId(binding.view.id)?.query_params ?? binding.view.query_params, columns),
    save: (state) => binding.change(queryParamsOf(state, columns)),
  };
}
