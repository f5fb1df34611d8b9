import { useMatches } from "react-router";

/** What a route module may declare in its `handle` about the page it renders. */
export interface PageHandle {
  /**
   * false: the page is server-rendered HTML only. The root leaves out React Router's <Scripts/> (the
   * module scripts and their modulepreload links) and <ScrollRestoration/>, so the browser fetches
   * no JavaScript for it; every control on it must work as plain HTML (docs/decisions/026).
   */
  hydrate?: false;
}

/**
 * Whether this page loads and hydrates its React app: yes unless a matched route says
 * `handle = { hydrate: false }` (the opposite default of remix-utils' useShouldHydrate, where
 * routes opt in).
 */
export function useShouldHydrate() {
  return !useMatches().some((match) => (match.handle as PageHandle | undefined)?.hydrate === false);
}
