const THEMES = ["dracula", "light"] as const;
export type Theme = (typeof THEMES)[number];
const THEME_STORAGE_KEY = "theme";
/** Also a cookie, so the server renders the theme and a plain form can change it. */
export const THEME_COOKIE = "theme";
export const DEFAULT_THEME: Theme = "dracula";
const THEME_COOKIE_MAX_AGE = 31_536_000;

/** A theme's name, or null for anything else. */
export function parseTheme(value: unknown): Theme | null {
  return value === "light" || value === "dracula" ? value : null;
}

/** The cookie that keeps the theme: readable by the page's scripts (applyTheme writes it too). */
export function themeCookie(theme: Theme) {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${THEME_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/**
 * Runs inline in <head> before the body is parsed, so a server-rendered page never flashes the
 * wrong theme (docs/product-spec.md §4: nothing renders until the theme has been read). The cookie
 * wins (a page without module scripts changes it with a form post, docs/decisions/026), then
 * localStorage (where the theme was kept before the cookie); each is brought in line with the other.
 */
// Also remembers the browser time zone in the `tz` cookie: the server formats dates and periods in it.
export const themeBootScript = `(function(){try{var k=${JSON.stringify(THEME_STORAGE_KEY)},c=/(?:^|; )${THEME_COOKIE}=(light|dracula)(?:;|$)/.exec(document.cookie),t=c&&c[1],s=null;try{s=localStorage.getItem(k)}catch(e){}if(!t){t=s==="light"||s==="dracula"?s:${JSON.stringify(DEFAULT_THEME)};if(t===s)document.cookie=${JSON.stringify(`${THEME_COOKIE}=`)}+t+${JSON.stringify(`;path=/;max-age=${THEME_COOKIE_MAX_AGE};samesite=lax`)}}else if(s!==t){try{localStorage.setItem(k,t)}catch(e){}}document.documentElement.dataset.theme=t}catch(e){}try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)document.cookie="tz="+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"}catch(e){}})();`;

export function readTheme(): Theme {
  if (typeof document === "undefined") return DEFAULT_THEME;
  const t = document.documentElement.dataset.theme;
  return t === "light" ? "light" : "dracula";
}

export function applyTheme(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  // biome-ignore lint/suspicious/noDocumentCookie: a constant cookie of ours; the Cookie Store API is missing from some browsers we serve.
  document.cookie = themeCookie(theme);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode without storage: the cookie still keeps it.
  }
}
