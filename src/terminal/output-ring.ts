/** The newest output of a terminal up to a byte size (older chunks drop off the front). */
export class OutputRing {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly maxBytes: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.size;
  }

  /** Keeps a copy of the chunk (the pty reuses its buffer). */
  push(data: Uint8Array): void {
    this.chunks.push(data.slice());
    this.size += data.length;
    while (this.size > this.maxBytes && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
  }

  /** Answers the chunks held, oldest first, and forgets them. */
  take(): Uint8Array[] {
    const out = this.chunks;
    this.chunks = [];
    this.size = 0;
    return out;
  }

  /** The chunks held, oldest first (kept). */
  peek(): readonly Uint8Array[] {
    return this.chunks;
  }
}
