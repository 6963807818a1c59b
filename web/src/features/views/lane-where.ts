/**
 * The where term that picks the rows holding one value of a column (a kanban lane, a group of the
 * grid): `(col,eq,v)`, or blank for the empty lane. Values are written as the where language takes
 * them; the server binds them as parameters.
 */
export function valueWhere(column: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return `(${column},blank)`;
  // A JSON value (object or array) is written as its JSON text, which a JSON column compares as JSON.
  return `(${column},eq,${typeof value === 'object' ? JSON.stringify(value) : String(value)})`;
}

/** The rows of none of `values` (the 'Uncategorized' lane of a kanban): blank or not a choice. */
export function otherWhere(column: string, values: string[]): string {
  if (!values.length) return '';
  return `(${column},blank)~or(${column},nin,${values.join(',')})`;
}
