import { isNumberLocale, type NumberLocale, numberLocaleFrom } from "~/domain/number-locale";

/**
 * The number format a request is read in: the user's choice (Settings), else the browser's
 * languages (Accept-Language). The forms validate with the same one (the root loader hands it to
 * the page), so the browser and the action read an amount alike.
 */
export function requestNumberLocale(request: Request, user?: { locale?: string | null } | null): NumberLocale {
  if (user && isNumberLocale(user.locale)) return user.locale;
  return numberLocaleFrom(request.headers.get("Accept-Language"));
}
