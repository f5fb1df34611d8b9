import { readCookie } from "./cookies.server";
import { DEFAULT_THEME, parseTheme, THEME_COOKIE, type Theme } from "./theme";

/** The theme this request's cookie names, else the default: the server renders it (root.tsx). */
export function requestTheme(request: Request): Theme {
  return parseTheme(readCookie(request, THEME_COOKIE)) ?? DEFAULT_THEME;
}
