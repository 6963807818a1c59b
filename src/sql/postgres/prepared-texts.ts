/**
 * Which SQL texts run as named prepared statements on PostgreSQL. The `postgres` driver keeps every
 * prepared statement of a connection (and the server keeps its plan) until the connection closes, with no
 * bound: a workload whose texts keep changing (IN lists of every length, filters, sorts and field lists of
 * every shape) would grow both for as long as the connection lives. A text is prepared once it has been
 * seen twice (a one-off text gains nothing from it), and at most `max` distinct texts per pool ever are, so
 * no connection holds more than `max` statements; any other text runs unnamed (parse, bind and execute
 * in one round trip).
 */
export class PreparedTexts {
  private readonly kept = new Set<string>();
  private readonly seen = new Set<string>();

  constructor(
    readonly max = 1000,
    private readonly seenMax = 10_000,
  ) {}

  /** True when `text` is to run as a named prepared statement. */
  admit(text: string): boolean {
    if (this.kept.has(text)) return true;
    if (this.kept.size >= this.max) return false;
    if (this.seen.delete(text)) {
      this.kept.add(text);
      return true;
    }
    if (this.seen.size >= this.seenMax) this.seen.clear();
    this.seen.add(text);
    return false;
  }

  /** Number of texts admitted so far (at most `max`). */
  get size(): number {
    return this.kept.size;
  }
}
