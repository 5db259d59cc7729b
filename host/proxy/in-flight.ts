// The exchanges in flight, and draining them at shutdown: once draining, no new exchange starts
// (the server answers 503), in-flight ones may finish within a bound, and those still running at the
// bound are cut: an SSE stream ends between two events, anything else is closed (doc/operations.md).

/** What the tracker needs of an exchange. */
export interface Cuttable {
  /** Ends the exchange now (InFlight waits on `closed` for its response to flush). */
  cut(): void;
  /** Resolves when the exchange's response has closed (finished, cut or abandoned). */
  readonly closed: Promise<void>;
}

export interface DrainReport {
  /** Exchanges in flight when draining began. */
  readonly inFlight: number;
  /** Of those, ended by the bound. */
  readonly cut: number;
}

/** After a cut, how long a client that does not read may hold its response open before the socket is closed. */
const CUT_FLUSH_MS = 2_000;

export class InFlight {
  private readonly live = new Set<Cuttable>();
  /** Set once drain() has begun: new exchanges are refused, SSE writes keep to event boundaries. */
  draining = false;

  get size(): number {
    return this.live.size;
  }

  add(ex: Cuttable): void {
    this.live.add(ex);
    void ex.closed.then(() => this.live.delete(ex));
  }

  /**
   * Marks the start of draining and waits until every exchange has closed or `graceMs` passed, then
   * cuts the rest and waits (at most CUT_FLUSH_MS) for their responses to flush.
   */
  async drain(graceMs: number): Promise<DrainReport> {
    this.draining = true;
    const pending = [...this.live];
    const all = Promise.all(pending.map((ex) => ex.closed));
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (!expired) return { inFlight: pending.length, cut: 0 };
    const still = [...this.live];
    for (const ex of still) ex.cut();
    await Promise.race([Promise.all(still.map((ex) => ex.closed)), new Promise((resolve) => setTimeout(resolve, CUT_FLUSH_MS).unref())]);
    return { inFlight: pending.length, cut: still.length };
  }
}
