/** The order in which Apply all and Roll back all run migrations. */
import type { Migration } from '../../api/schema';

/** Pending migrations oldest first, applied ones newest first: the order Apply all / Roll back all run them. */
export function runOrder(list: Migration[], action: 'apply' | 'rollback'): Migration[] {
  return action === 'apply' ? list.filter((m) => m.status !== 'applied').reverse() : list.filter((m) => m.status === 'applied');
}
