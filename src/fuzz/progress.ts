/**
 * Progress of a fuzz run: a bar redrawn in place on a terminal, a plain line every `every` cases otherwise (a CI
 * log keeps every line, so it gets few). Counts only: nothing here prints a request.
 */

export interface ProgressSink {
  write(text: string): void;
}

export class Progress {
  private lastLine = 0;
  private drawn = false;
  private lastDrawn = 0;
  private lastFailing = 0;
  /** A terminal is redrawn every half percent (and on a new failure, and at the end), not on every case: a fuzz run
   * answers thousands of cases a second, and a write to the terminal per case cost more than some oracles. */
  private readonly drawEvery: number;

  constructor(
    private readonly out: ProgressSink,
    private readonly tty: boolean,
    private readonly label: string,
    private readonly total: number,
    private readonly every = Math.max(100, Math.ceil(total / 10)),
  ) {
    this.drawEvery = Math.max(1, Math.floor(total / 200));
  }

  update(done: number, failing = 0): void {
    if (this.tty) {
      if (done - this.lastDrawn < this.drawEvery && failing === this.lastFailing && done !== this.total) return;
      this.lastDrawn = done;
      this.lastFailing = failing;
      const width = 30;
      const filled = this.total > 0 ? Math.min(width, Math.round((done / this.total) * width)) : 0;
      const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
      this.out.write(`\r${this.label} [${bar}] ${done}/${this.total}${failing ? `, ${failing} failing` : ''}   `);
      this.drawn = true;
      return;
    }
    if (done - this.lastLine >= this.every || done === this.total) {
      this.lastLine = done;
      this.out.write(`${this.label}: ${done}/${this.total}${failing ? `, ${failing} failing` : ''}\n`);
    }
  }

  end(): void {
    if (this.tty && this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}
