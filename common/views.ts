/** What a saved view is made of, as the API contract (section 6) fixes it: the server stores it, the web app edits it. */

/** The five kinds of saved view, in the views panel's order. */
export const VIEW_TYPES = ['grid', 'gallery', 'kanban', 'calendar', 'form'] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

/** One column of a view: shown or hidden, in the view's order, with its width in the grid (pixels). */
export interface ViewField {
  cn: string;
  show: boolean;
  width?: number;
}

/** One field of a form view. */
export interface FormField {
  cn: string;
  label?: string;
  help?: string;
  required?: boolean;
}

/** Row heights of the grid. */
export type RowHeight = 'short' | 'medium' | 'tall';
