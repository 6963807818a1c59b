/**
 * The key range of a bulk insert's audit entry. Such an entry holds every row of the call (`value`:
 * `{ ids, rows }`, `pk` empty): one entry per call keeps an import of 100,000 rows fast, but a
 * row's history must then find the entry holding the row. Each entry keeps the smallest and the
 * largest of its keys (`pk_lo`, `pk_hi`, indexed), and the history reads only the entries whose range
 * holds the key, then checks the ids inside them. Rows of one call usually have neighbouring keys
 * (an auto-increment key counts up; imported keys are often in order), so a key falls into the
 * range of one entry or a few. Keys with no such order (random text keys) still give the right
 * answer; their ranges overlap, and more entries are read.
 *
 * The order is one SQLite (bytes) and PostgreSQL (under any collation) agree on: only the characters
 * 0-9 and a-z. A whole non-negative number is `n`, its digit count on two digits, then its digits
 * (so 9 < 10, as numbers); any other key is `t` and the hex of its UTF-8 bytes (byte order).
 */

const WHOLE = /^(0|[1-9]\d{0,98})$/;

/** A key in the range's order. */
export function keyOrder(id: string): string {
  if (WHOLE.test(id)) return `n${String(id.length).padStart(2, '0')}${id}`;
  return `t${Buffer.from(id, 'utf8').toString('hex')}`;
}

/** A range no key falls into (its low end above its high end): an entry whose keys are not known. */
const NO_KEYS = { lo: 'z', hi: '' };

/** The smallest and the largest of the keys given (nulls left out) in that order; none known: NO_KEYS. */
export function keyRange(ids: readonly (string | null)[]): { lo: string; hi: string } {
  let lo: string | null = null;
  let hi: string | null = null;
  for (const id of ids) {
    if (id === null) continue;
    const k = keyOrder(id);
    if (lo === null || k < lo) lo = k;
    if (hi === null || k > hi) hi = k;
  }
  return lo === null ? NO_KEYS : { lo, hi: hi! };
}
