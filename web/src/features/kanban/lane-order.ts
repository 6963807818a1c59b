/** The order of a kanban's lanes. Pure. */

/** The key of the 'Uncategorized' lane (blank or not a choice). */
export const UNCATEGORIZED = '';

/** Lane keys in the view's order: its saved order first, then lanes it does not know yet. */
export function laneOrder(choices: string[], saved: string[] | undefined): string[] {
  const all = [UNCATEGORIZED, ...choices];
  const known = (saved ?? []).filter((k) => all.includes(k));
  return [...known, ...all.filter((k) => !known.includes(k))];
}
