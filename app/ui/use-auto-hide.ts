import { type Dispatch, type SetStateAction, useEffect, useState } from "react";

/** State for an inline alert that clears itself `ms` after each new value (docs/product-spec.md §9: 4 s). */
export function useAutoHide<T>(
  initial: T | null | (() => T | null),
  ms = 4000,
): [T | null, Dispatch<SetStateAction<T | null>>] {
  const [value, setValue] = useState<T | null>(initial);
  useEffect(() => {
    if (!value) return;
    const timer = setTimeout(() => setValue(null), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return [value, setValue];
}
