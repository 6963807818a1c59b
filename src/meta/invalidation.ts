/**
 * One notifier per metadata store through which every cache of metadata is invalidated:
 * `publish(topic, key)` drops the entry in this process at once and, on a PostgreSQL store, in
 * every other instance sharing it (LISTEN/NOTIFY on channel `tablo_invalidate`, delivered in
 * milliseconds; through a transaction, when it commits). On SQLite it stays in-process. Key `*`
 * means "everything of the topic": it is also delivered to every topic when the listening
 * connection comes back after an outage, since messages may have been lost meanwhile.
 *
 * A message this instance could not send (the store did not answer, or it is over PostgreSQL's
 * 8000 bytes) is not retried as such: the instance owes the others a resync instead, and sends it
 * (`*` of topic `*`: each of them delivers `*` to every topic, as after its own outage) every half
 * second until the store takes it. One flag, however many messages were lost, and the receivers
 * end up as consistent as after their own outage: caches dropped, realtime clients told to read
 * again (src/realtime/feature.ts).
 *
 * Topics: `user` (user id), `roles` (project\0user, or *), `project` (project id), `acl`
 * (project\0dbAlias), `token` (API token hash), `schema` (project\0dbAlias: reload the model),
 * `evict` (project id: close its databases).
 */
import { randomSlug } from '../lib/ids';
import { TtlCache } from '../lib/ttl-cache';
import { notificationsOf, type MetaStore } from './store';

/** The key that stands for every entry of a topic. */
export const ALL = '*';
/** The PostgreSQL channel the notifier listens on. */
export const CHANNEL = 'tablo_invalidate';
/** PostgreSQL refuses a notification payload of 8000 bytes or more. */
const PAYLOAD_LIMIT = 8000;
/** How often an owed resync is tried again while the store does not answer. */
const RESYNC_RETRY_MS = 500;

type Handler = (key: string) => void;

/** Publishes and delivers invalidations for one store (see the file comment). */
export class Notifier {
  /** Tells this instance's own messages apart from other instances'. */
  readonly instance = randomSlug(12);
  private subs = new Map<string, Set<Handler>>();
  /** Invalidations received from other instances (for tests and the lag benchmark). */
  received = 0;
  /** Settles once the first attempt to listen for other instances is over (at once on SQLite). */
  readonly ready: Promise<void>;
  /**
   * A message of this instance was lost and no resync sent since has left yet (see the file
   * comment): the next attempt covers every change made before it starts.
   */
  private owed = false;
  /** The loop that sends the owed resync, while one runs. */
  private resyncing: Promise<void> | null = null;

  constructor(private root: MetaStore) {
    const remote = notificationsOf(root);
    this.ready = remote
      ? remote.listen(CHANNEL, (payload) => this.receive(payload), () => this.resync()).then(() => {}, () => {})
      : Promise.resolve();
  }

  /** Calls fn with every key published on `topic` (here or, on PostgreSQL, elsewhere). */
  subscribe(topic: string, fn: Handler): () => void {
    let set = this.subs.get(topic);
    if (!set) this.subs.set(topic, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  /**
   * Drops `key` of `topic` here at once and in the other instances. `via`: the transaction the
   * change was made in (the message then leaves when it commits; await this inside it).
   */
  async publish(topic: string, key: string, via?: MetaStore): Promise<void> {
    this.deliver(topic, key);
    await this.announce(topic, key, via);
  }

  /** Tells only the other instances (this one has already applied the change). */
  async announce(topic: string, key: string, via?: MetaStore): Promise<void> {
    const remote = notificationsOf(this.root);
    if (!remote) return;
    // A resync is owed and its next attempt starts after now: it tells the others of this change
    // too (one made in a transaction goes out with it: the resync may leave before it commits).
    if (this.owed && !via?.root) return;
    const payload = this.payload(topic, key);
    // Too big for a notification: the others read everything again instead.
    if (Buffer.byteLength(payload) >= PAYLOAD_LIMIT) return void this.oweResync();
    try {
      await remote.notify(CHANNEL, payload, via?.root ? via : undefined);
    } catch {
      // Lost (the store did not answer): the others resync once it does.
      this.oweResync();
    }
  }

  /**
   * The bytes left in a notification of `key` on `topic` (below 0: it does not fit, and announcing
   * it makes the others resync). Text added inside `key`'s JSON strings or arrays costs
   * `nestedBytes` of it: it is escaped twice on the way.
   */
  room(topic: string, key: string): number {
    return PAYLOAD_LIMIT - 1 - Buffer.byteLength(this.payload(topic, key));
  }

  /**
   * Makes every other instance resync (as after an outage of its own), as soon as the store takes
   * the message; answers once it has. Called when something meant for them was lost.
   */
  oweResync(): Promise<void> {
    const remote = notificationsOf(this.root);
    if (!remote) return Promise.resolve();
    this.owed = true;
    this.resyncing ??= (async () => {
      try {
        while (this.owed) {
          // Losses from now on are not covered by this attempt: they owe another one.
          this.owed = false;
          try {
            await remote.notify(CHANNEL, this.payload(ALL, ALL));
          } catch {
            this.owed = true;
            await new Promise((again) => setTimeout(again, RESYNC_RETRY_MS).unref?.());
          }
        }
      } finally {
        this.resyncing = null;
      }
    })();
    return this.resyncing;
  }

  private payload(topic: string, key: string): string {
    return JSON.stringify({ i: this.instance, t: topic, k: key });
  }

  private deliver(topic: string, key: string): void {
    for (const fn of this.subs.get(topic) ?? []) {
      try {
        fn(key);
      } catch {
        // One failing subscriber must not keep the others from dropping their entries.
      }
    }
  }

  private receive(payload: string): void {
    let m: { i?: string; t?: string; k?: string };
    try {
      m = JSON.parse(payload);
    } catch {
      return;
    }
    if (m.i === this.instance || typeof m.t !== 'string' || typeof m.k !== 'string') return;
    this.received++;
    // Another instance lost a message meant for this one.
    if (m.t === ALL) return this.resync();
    this.deliver(m.t, m.k);
  }

  private resync(): void {
    for (const topic of this.subs.keys()) this.deliver(topic, ALL);
  }
}

/** What a JSON-able value adds to a notification when it is put in the JSON text of a key (see Notifier.room). */
export function nestedBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(JSON.stringify(value))) - 2;
}

const notifiers = new WeakMap<MetaStore, Notifier>();

/** The notifier of a store (a transaction gives its root store's). */
export function invalidation(meta: MetaStore): Notifier {
  const root = meta.root ?? meta;
  let n = notifiers.get(root);
  if (!n) notifiers.set(root, (n = new Notifier(root)));
  return n;
}

const topicCaches = new WeakMap<MetaStore, Map<string, TtlCache<string, unknown>>>();

/**
 * The cache of one topic for a store, made on first use: entries expire after `ttlMs` (a safety
 * net) and are dropped when their key (or `*`) is published on the topic.
 */
export function topicCache<V>(meta: MetaStore, topic: string, ttlMs: number): TtlCache<string, V> {
  const root = meta.root ?? meta;
  let byTopic = topicCaches.get(root);
  if (!byTopic) topicCaches.set(root, (byTopic = new Map()));
  let cache = byTopic.get(topic);
  if (!cache) {
    const made = new TtlCache<string, unknown>(ttlMs);
    invalidation(root).subscribe(topic, (key) => (key === ALL ? made.clear() : made.delete(key)));
    byTopic.set(topic, (cache = made));
  }
  return cache as TtlCache<string, V>;
}
