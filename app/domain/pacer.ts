const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How much wider than 1/perSecond the slots are. A request reaches the provider some milliseconds
 * after its slot (the body is serialised, the connection written), and not the same for every
 * request; at exactly 1/perSecond apart, two gaps a little short put perSecond + 1 requests in the
 * provider's rolling second, and the 429 costs a whole Retry-After (measured: 4 to 7 of them in 10
 * to 50 requests, bench/RESULTS.md). 10% wider costs 50 ms a slot at 2 a second and leaves room
 * for 100 ms of jitter over two gaps.
 */
export const PACE_MARGIN = 1.1;

/**
 * The pace of sends to the provider: at most `perSecond` starts per second, evenly spaced
 * (PACE_MARGIN apart), and none while paused (the provider said 429 with a Retry-After). One per
 * isolate: the queue has one consumer at a time (max_concurrency = 1 in wrangler.toml), so the
 * pace holds for everyone.
 */
export class Pacer {
  private nextAt = 0;
  private pausedUntil = 0;

  constructor(
    readonly perSecond: number,
    private readonly clock: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = defaultSleep,
  ) {}

  /** Waits for the next send slot. */
  async take(): Promise<void> {
    for (;;) {
      const now = this.clock();
      const at = Math.max(this.nextAt, this.pausedUntil);
      if (at <= now) {
        this.nextAt = now + (1000 * PACE_MARGIN) / this.perSecond;
        return;
      }
      // Then look again: a pause may have come meanwhile, or another send took the slot.
      await this.sleep(at - now);
    }
  }

  /** No send starts for `ms` from now. */
  pause(ms: number) {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock() + ms);
  }

  /** Milliseconds until sends may start again (0: not paused). */
  pausedFor() {
    return Math.max(0, this.pausedUntil - this.clock());
  }
}

let shared: Pacer | undefined;

/** The isolate's pacer at `perSecond` (a new one when the configured rate changed). */
export function sharedPacer(perSecond: number): Pacer {
  if (shared?.perSecond !== perSecond) shared = new Pacer(perSecond);
  return shared;
}
