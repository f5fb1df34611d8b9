/** Select-all selects everything, or clears when everything is already selected (docs/product-spec.md §4). */
export function toggleAll<T>(selected: ReadonlySet<T>, ids: readonly T[]): Set<T> {
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  return all ? new Set<T>() : new Set(ids);
}

export function toggleOne<T>(selected: ReadonlySet<T>, id: T): Set<T> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
