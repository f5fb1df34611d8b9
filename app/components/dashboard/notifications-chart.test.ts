import { describe, expect, it } from "vitest";
import { monotonePath, valueTicks } from "./notifications-chart";

/** Every y of a path's points (start, control and end points). */
const ys = (path: string) =>
  path
    .replace(/[MC]/g, ",")
    .split(",")
    .filter(Boolean)
    .map(Number)
    .filter((_, i) => i % 2 === 1);

describe("the notifications chart's scale and line", () => {
  it("ticks whole numbers from 0 to a round top, at most five", () => {
    expect(valueTicks(0)).toEqual([0, 1, 2, 3, 4]);
    expect(valueTicks(1)).toEqual([0, 1]);
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(valueTicks(13)).toEqual([0, 5, 10, 15]);
    expect(valueTicks(250)).toEqual([0, 100, 200, 300]);
    for (const max of [1, 2, 5, 9, 11, 99, 101, 999, 12345]) {
      const ticks = valueTicks(max);
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.every(Number.isInteger)).toBe(true);
    }
  });

  it("draws a curve through every point; a flat series stays flat", () => {
    const points = [0, 3, 1, 1, 4, 0].map((y, i) => ({ x: i * 10, y }));
    const path = monotonePath(points);
    for (const p of points.slice(1)) expect(path).toContain(`,${p.x},${p.y}`);
    const flat = monotonePath([0, 1, 2].map((i) => ({ x: i * 10, y: 5 })));
    expect(ys(flat)).toEqual([5, 5, 5, 5, 5, 5, 5]);
    expect(monotonePath([])).toBe("");
    expect(monotonePath([{ x: 1, y: 2 }])).toBe("M1,2");
  });

  it("never overshoots between two points of a monotone stretch (no dip below zero)", () => {
    // SVG y grows downwards: y 100 is the zero line, the series 0, 0, 5, 5 rises to y 50.
    const path = monotonePath([100, 100, 50, 50].map((y, i) => ({ x: i * 30, y })));
    expect(Math.max(...ys(path))).toBeLessThanOrEqual(100);
    expect(Math.min(...ys(path))).toBeGreaterThanOrEqual(50);
  });
});
