import { useRouteLoaderData } from "react-router";
import { DEFAULT_NUMBER_LOCALE, type NumberLocale } from "~/domain/number-locale";
import type { loader as rootLoader } from "~/root";

/** The user's today ("YYYY-MM-DD" in their zone) as the page was rendered: overdue badges count from it. */
export function useToday(): string {
  return useRouteLoaderData<typeof rootLoader>("root")?.today ?? new Date().toISOString().slice(0, 10);
}

/** The user's number format on this page (the root loader's): the amount fields read what is typed in it. */
export function useNumberLocale(): NumberLocale {
  return useRouteLoaderData<typeof rootLoader>("root")?.numberLocale ?? DEFAULT_NUMBER_LOCALE;
}
