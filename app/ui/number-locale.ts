import { useRouteLoaderData } from "react-router";
import { DEFAULT_NUMBER_LOCALE, type NumberLocale } from "~/domain/number-locale";
import type { loader as rootLoader } from "~/root";

/** The user's number format on this page (the root loader's): the amount fields read what is typed in it. */
export function useNumberLocale(): NumberLocale {
  return useRouteLoaderData<typeof rootLoader>("root")?.numberLocale ?? DEFAULT_NUMBER_LOCALE;
}
