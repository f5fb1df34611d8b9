import { type ClassValue, clsx } from "clsx";

/**
 * Class names joined, without merging conflicting Tailwind classes: a class-merging library is
 * about 8 KB gzip in every page's first load. So a component's own
 * classes never conflict with what its callers add: a caller that needs another height or wrapping
 * asks for a variant (`size: "wrap"` in app/components/ui/variants.ts), never for an override.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
