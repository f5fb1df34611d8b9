import { useRouteLoaderData } from "react-router";
import { DEFAULT_NUMBER_LOCALE, type NumberLocale } from "~/domain/number-locale";

/** What the root loader tells every page of the user's formats (app/root.tsx returns it). */
export interface PageFormats {
  /** The user's number and date format: the amount fields read what is typed in it, and dates are written in it. */
  numberLocale: NumberLocale;
  /** The user's today ("YYYY-MM-DD" in their zone) as the page was rendered: overdue badges count from it. */
  today: string;
}

const usePageFormats = () => useRouteLoaderData("root") as Partial<PageFormats> | undefined;

/** The user's today on this page, as the server rendered it. */
export function useToday(): string {
  return usePageFormats()?.today ?? new Date().toISOString().slice(0, 10);
}

/** The user's number and date format on this page (app/domain/dates.ts, app/domain/amount-input.ts). */
export function useLocale(): NumberLocale {
  return usePageFormats()?.numberLocale ?? DEFAULT_NUMBER_LOCALE;
}
