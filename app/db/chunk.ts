// Id lists split over D1 statements: a statement binds at most 100 values.

/** D1 binds at most 100 values per statement; id lists go in slices of this size, leaving room for the rest. */
export const IDS_PER_STATEMENT = 50;

/** `items` in consecutive slices of at most `size` (none for an empty list). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}

/** The list without repeats, first occurrence first: ids split over statements must not match twice. */
export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
