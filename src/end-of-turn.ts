/**
 * Work queued during one turn of the event loop and done together when the turn ends (setImmediate).
 *
 * Why: when a writer and its reader share a machine (loopback, the kit's own use), a write pays for waking the
 * reader if it sleeps. Writes made one by one as work comes in wake it once each; written back to back at the end of
 * the turn, the first wakes it and the rest find it awake. The kit's HTTP client writes its requests this way
 * (src/client/keepalive.ts) and the reference gateway its answers (src/gateway/answers.ts). An item waits at most
 * the rest of the turn in which it was queued.
 */
export class EndOfTurn<T> {
  private items: T[] = [];
  private readonly flush = (): void => {
    const items = this.items;
    this.items = [];
    for (const item of items) this.run(item);
  };

  /** `run` does one item's work; it must not throw (the items after it would be lost). */
  constructor(private readonly run: (item: T) => void) {}

  push(item: T): void {
    if (this.items.length === 0) setImmediate(this.flush);
    this.items.push(item);
  }
}
