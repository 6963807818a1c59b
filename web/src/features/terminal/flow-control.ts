/**
 * Flow control of a browser terminal: counts output handed to xterm and not yet drawn, and asks
 * the server to hold output (`pause`) above the high mark and to go on (`resume`) below the low one.
 */
/** Unrendered output above which the server is asked to pause, and below which to resume. */
export const FLOW_HIGH = 512 * 1024;
export const FLOW_LOW = 64 * 1024;

/** Counts output handed to xterm and not yet rendered; sends pause/resume across the marks. */
export class FlowControl {
  private pending = 0;
  private paused = false;
  constructor(private readonly send: (message: { type: 'pause' | 'resume' }) => void) {}

  /** Output arrived; answers the callback to call once xterm has rendered it. */
  written(bytes: number): () => void {
    this.pending += bytes;
    if (!this.paused && this.pending > FLOW_HIGH) {
      this.paused = true;
      this.send({ type: 'pause' });
    }
    return () => {
      this.pending -= bytes;
      if (this.paused && this.pending < FLOW_LOW) {
        this.paused = false;
        this.send({ type: 'resume' });
      }
    };
  }

  /** A new socket starts unpaused (the server resets its side on attach); output still unrendered counts on. */
  reset(): void {
    this.paused = false;
  }
}
