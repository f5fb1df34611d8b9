/**
 * Batches of reminders for the provider's batch endpoint (docs/decisions/021-batch-sending.md):
 * which reminders go together and the Idempotency-Key of each request.
 */

/** Resend's batch endpoint takes at most this many e-mails a request. */
export const BATCH_SIZE = 100;

/**
 * The Idempotency-Key of a batch: derived from exactly the occurrence keys it carries (order does
 * not matter), so the identical batch sent again is deduplicated by the provider and a batch with
 * any other content never reuses it. "batch-" and a SHA-256 in hex: 70 characters (Resend takes
 * 256), never equal to an occurrence key (the single-send key).
 */
export async function batchKeyOf(occurrenceKeys: readonly string[]): Promise<string> {
  if (occurrenceKeys.length === 0) throw new Error("A batch carries at least one e-mail");
  const canonical = JSON.stringify([...new Set(occurrenceKeys)].sort());
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return `batch-${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** `items` in batches of at most `size`, in order. */
export function inBatches<T>(items: readonly T[], size = BATCH_SIZE): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

/**
 * The most bytes of jobs one batch row holds (mail_batches.jobs, JSON): under D1's 2 MB row limit
 * with room to spare. A statement with late-payment charges carries each charge's basis
 * (decisions/067), so a hundred long statements could pass it; the batch then closes early.
 */
export const MAX_BATCH_BYTES = 1_500_000;

/**
 * `items` in batches of at most `size` and at most `maxBytes` of `bytesOf` each, in order; an item
 * larger than `maxBytes` alone is a batch of its own.
 */
export function inBatchesWithin<T>(
  items: readonly T[],
  bytesOf: (item: T) => number,
  maxBytes = MAX_BATCH_BYTES,
  size = BATCH_SIZE,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const b = bytesOf(item);
    if (current.length > 0 && (current.length >= size || bytes + b > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += b;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A batch refused as a whole is split in two halves (the first one the larger), each tried on its own. */
export function halves<T>(items: readonly T[]): [T[], T[]] {
  const middle = Math.ceil(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)];
}

/**
 * Sends of one batch that end without a definite answer (timeout, reset, 5xx) before its e-mails
 * are 'failed'; each retry sends the identical batch under the same key.
 */
export const MAX_BATCH_ATTEMPTS = 6;
/** Waits before retry 2, 3, … of a batch: short first (a fault is usually brief), then longer. */
export const BATCH_RETRY_SECONDS = [5, 30, 120, 600, 1800] as const;

/** The wait before the next attempt after `attempts` failed ones (1-based), or null: give up. */
export function retryDelaySeconds(attempts: number): number | null {
  if (attempts >= MAX_BATCH_ATTEMPTS) return null;
  return BATCH_RETRY_SECONDS[Math.max(0, attempts - 1)] ?? BATCH_RETRY_SECONDS[BATCH_RETRY_SECONDS.length - 1];
}
