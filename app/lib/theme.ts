const THEMES = ["dracula", "light"] as const;
export type Theme = (typeof THEMES)[number];
const THEME_STORAGE_KEY = "theme";
export const DEFAULT_THEME: Theme = "dracula";

/**
 * Runs inline in <head> before the body is parsed, so a server-rendered page never flashes the
 * wrong theme (docs/product-spec.md §4: nothing renders until the theme has been read).
 */
// Also remembers the browser time zone in the `tz` cookie: the server formats dates and periods in it.
export const themeBootScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t!=="light"&&t!=="dracula")t=${JSON.stringify(DEFAULT_THEME)};document.documentElement.dataset.theme=t}catch(e){}try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)document.cookie="tz="+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"}catch(e){}})();`;

export function readTheme(): Theme {
  if (typeof document === "undefined") return DEFAULT_THEME;
  const t = document.documentElement.dataset.theme;
  return t === "light" ? "light" : "dracula";
}

export function applyTheme(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode without storage: the theme still applies for this page.
  }
}
