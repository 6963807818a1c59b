/**
 * Two people changing one saved view at once: what this reader changed since the view they started
 * from (`base`) is laid over what the server holds now (`remote`), so that a save keeps the other's
 * changes of other settings instead of writing back the older values this screen still showed (a
 * form's heading changed by one, a field's help by the other: both stay). Objects merge key by key;
 * lists of columns (`{ cn, ... }`: a grid's fields, a form's fields) merge column by column, in the
 * order of whoever changed it; where both changed the same value, this reader's wins.
 */

type Json = unknown;

const same = (a: Json, b: Json) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const isObject = (v: Json): v is Record<string, Json> => !!v && typeof v === 'object' && !Array.isArray(v);
const isColumnList = (v: Json): v is { cn: string }[] => Array.isArray(v) && v.every((x) => isObject(x) && typeof x.cn === 'string');

/** `local` (changed from `base` here) merged with `remote` (the server's now). */
export function mergeChanges<T>(base: T, local: T, remote: T): T {
  if (same(local, base)) return remote;
  if (same(remote, base) || same(remote, local)) return local;
  if (isObject(base) && isObject(local) && isObject(remote)) {
    const out: Record<string, Json> = {};
    for (const key of new Set([...Object.keys(remote), ...Object.keys(local)])) {
      const merged = mergeChanges(base[key], local[key], remote[key]);
      if (merged !== undefined) out[key] = merged;
    }
    return out as T;
  }
  if (isColumnList(base) && isColumnList(local) && isColumnList(remote)) return mergeColumns(base, local, remote) as T;
  return local;
}

/** Lists of columns merged column by column (a column taken out on one side goes). */
function mergeColumns(base: { cn: string }[], local: { cn: string }[], remote: { cn: string }[]): { cn: string }[] {
  const byCn = (list: { cn: string }[]) => new Map(list.map((x) => [x.cn, x]));
  const [b, l, r] = [byCn(base), byCn(local), byCn(remote)];
  const order = (list: { cn: string }[]) => list.map((x) => x.cn);
  // The order of whoever changed it (this reader's when both did), then columns only the other side has.
  const first = same(order(local), order(base)) ? order(remote) : order(local);
  const names = [...new Set([...first, ...order(remote), ...order(local)])];
  const out: { cn: string }[] = [];
  for (const cn of names) {
    const [was, mine, theirs] = [b.get(cn), l.get(cn), r.get(cn)];
    // Taken out on one side (and not changed on the other): it goes.
    if (was && (!mine || !theirs)) continue;
    const merged = was ? mergeChanges(was, mine!, theirs!) : (mine ?? theirs)!;
    out.push(merged);
  }
  return out;
}
