/**
 * FLOAT columns (single precision) as MySQL and MariaDB show them: the binary protocol hands the
 * 32-bit value as a double, so 1.1 came back 1.100000023841858. Each such value becomes the shortest
 * decimal that is the same 32-bit float (1.1).
 */

/** MYSQL_TYPE_FLOAT, the column type of FLOAT in a result's field list. */
const FLOAT_TYPE = 4;

/** The shortest decimal that rounds to the same 32-bit float as `v`. */
export function shortestFloat32(v: number): number {
  if (!Number.isFinite(v)) return v;
  const single = Math.fround(v);
  for (let digits = 6; digits <= 9; digits++) {
    const x = Number(v.toPrecision(digits));
    if (Math.fround(x) === single) return x;
  }
  return v;
}

/** Rows with the values of their FLOAT columns made shortest (the rows are changed in place). */
export function floatsShortest<T>(rows: T[], fields: unknown): T[] {
  if (!Array.isArray(fields) || rows.length === 0) return rows;
  // No array made per answer unless it has a FLOAT column (most have none).
  let names: string[] | undefined;
  for (const f of fields as { name: string; columnType?: number }[]) if (f.columnType === FLOAT_TYPE) (names ??= []).push(f.name);
  if (!names) return rows;
  for (const row of rows as Record<string, unknown>[]) {
    for (const n of names) if (typeof row[n] === 'number') row[n] = shortestFloat32(row[n] as number);
  }
  return rows;
}
