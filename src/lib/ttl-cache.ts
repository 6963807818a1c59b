/**
 * A small map whose entries expire after `ttlMs`: for metadata read on every request (users,
 * projects, roles). Writers in this process delete what they change; other instances sharing the
 * metadata store see a change after at most `ttlMs`.
 */
export class TtlCache<K, V> {
  private entries = new Map<K, { value: V; until: number }>();
  constructor(private ttlMs: number, private max = 10_000) {}

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** One cache per owner object (e.g. per metadata store), created on first use. */
export function cacheFor<O extends object, K, V>(owners: WeakMap<O, TtlCache<K, V>>, owner: O, ttlMs: number): TtlCache<K, V> {
  let c = owners.get(owner);
  if (!c) owners.set(owner, (c = new TtlCache<K, V>(ttlMs)));
  return c;
}
