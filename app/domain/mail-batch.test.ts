import { describe, expect, it } from "vitest";
import { batchKeyOf, halves, inBatches, inBatchesWithin, MAX_BATCH_ATTEMPTS, retryDelaySeconds } from "./mail-batch";

describe("batchKeyOf", () => {
  it("is the same for the same occurrence keys in any order, and differs for any other content", async () => {
    const a = await batchKeyOf(["s1:100", "s2:100", "s3:200"]);
    expect(a).toMatch(/^batch-[0-9a-f]{64}$/);
    expect(await batchKeyOf(["s3:200", "s1:100", "s2:100"])).toBe(a);
    expect(await batchKeyOf(["s1:100", "s2:100"])).not.toBe(a);
    expect(await batchKeyOf(["s1:100", "s2:100", "s3:201"])).not.toBe(a);
    // A one-e-mail batch never takes the occurrence key itself (the single send's key).
    expect(await batchKeyOf(["s1:100"])).not.toBe("s1:100");
    // Keys are not concatenated ambiguously.
    expect(await batchKeyOf(["a", "b\nc"])).not.toBe(await batchKeyOf(["a\nb", "c"]));
  });

  it("refuses an empty batch", async () => {
    await expect(batchKeyOf([])).rejects.toThrow();
  });
});

describe("inBatches and halves", () => {
  it("cuts 250 into 100, 100 and 50 in order, and halves round the first half up", () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    const batches = inBatches(items);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(items);
    expect(halves([1, 2, 3]).map((h) => h.length)).toEqual([2, 1]);
    expect(halves([1])).toEqual([[1], []]);
  });
});

describe("retryDelaySeconds", () => {
  it("waits longer after each failed attempt and gives up at the last", () => {
    const waits = Array.from({ length: MAX_BATCH_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1));
    expect(waits).toEqual([5, 30, 120, 600, 1800]);
    expect(retryDelaySeconds(MAX_BATCH_ATTEMPTS)).toBeNull();
  });
});

describe("inBatchesWithin", () => {
  it("closes a batch at 100 items or before its bytes would pass the row's limit; a huge item goes alone", () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    expect(inBatchesWithin(items, () => 10).map((b) => b.length)).toEqual([100, 100, 50]);
    // 600 KB each: two fit under 1.5 MB, a third would not.
    expect(inBatchesWithin(items.slice(0, 5), () => 600_000).map((b) => b.length)).toEqual([2, 2, 1]);
    expect(inBatchesWithin([1, 2, 3], (i) => (i === 2 ? 5_000_000 : 10)).map((b) => b.length)).toEqual([1, 1, 1]);
    expect(inBatchesWithin([], () => 1)).toEqual([]);
    // Every item once, in order.
    expect(inBatchesWithin(items, (i) => (i % 7) * 100_000).flat()).toEqual(items);
  });
});
