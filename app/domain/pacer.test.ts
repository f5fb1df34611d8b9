import { describe, expect, it } from "vitest";
import { Pacer } from "./pacer";

/** A pacer on a fake clock: sleeping moves the clock, so the test sees when each send would start. */
function fakePacer(perSecond: number) {
  let now = 1_000_000;
  const pacer = new Pacer(
    perSecond,
    () => now,
    async (ms) => {
      now += ms;
    },
  );
  return { pacer, at: () => now };
}

describe("the mail pacer", () => {
  it("spaces sends evenly, a tenth under the configured rate", async () => {
    const { pacer, at } = fakePacer(2);
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await pacer.take();
      starts.push(at());
    }
    expect(starts.map((t) => t - starts[0]!)).toEqual([0, 550, 1100, 1650, 2200]);
    // No rolling second ever holds more than the configured 2, even with 100 ms of jitter over two gaps.
    for (let i = 2; i < starts.length; i++) expect(starts[i]! - starts[i - 2]! - 100).toBeGreaterThanOrEqual(1000);
  });

  it("a 429's Retry-After holds every send until it has passed", async () => {
    const { pacer, at } = fakePacer(10);
    await pacer.take();
    const t0 = at();
    pacer.pause(3000);
    expect(pacer.pausedFor()).toBe(3000);
    await pacer.take();
    expect(at() - t0).toBe(3000);
    expect(pacer.pausedFor()).toBe(0);
    await pacer.take();
    expect(at() - t0).toBe(3110);
  });

  it("concurrent takers get distinct slots", async () => {
    let now = 0;
    const sleeps: Promise<void>[] = [];
    const pacer = new Pacer(
      4,
      () => now,
      (ms) => {
        const p = Promise.resolve().then(() => {
          now = Math.max(now, now + ms);
        });
        sleeps.push(p);
        return p;
      },
    );
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        await pacer.take();
        starts.push(now);
      }),
    );
    expect(new Set(starts).size).toBe(4);
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(750);
  });
});
