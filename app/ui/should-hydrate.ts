import { useMatches } from "react-router";

/** What a route module may declare in its `handle` about the page it renders. */
export interface PageHandle {
  /**
   * false: the page is server-rendered HTML only. The root leaves out React Router's <Scripts/> (the
   * module scripts and their modulepreload links) and <ScrollRestoration/>, so the browser fetches
   * no JavaScript for it; every control on it must work as plain HTML (docs/decisions/026).
   */
  hydrate?: false;
  /**
   * A page a debtor reaches from a reminder (/d/…, /p/…, /u/…): the root leaves out Dunly's header
   * and footer; the page shows the user's brand instead (app/components/debtor-brand.tsx).
   */
  debtorPage?: true;
}

/** Whether this page is one a debtor reaches from a reminder (its route's `handle.debtorPage`). */
export function useDebtorPage() {
  return useMatches().some((match) => (match.handle as PageHandle | undefined)?.debtorPage === true);
}

/**
 * Whether this page loads and hydrates its React app: yes unless a matched route says
 * `handle = { hydrate: false }` (the opposite default of remix-utils' useShouldHydrate, where
 * routes opt in).
 */
export function useShouldHydrate() {
  return !useMatches().some((match) => (match.handle as PageHandle | undefined)?.hydrate === false);
}

/**
 * The clientLoader of a route that is not hydrated. A hydrated page can still navigate to it on the
 * client (a link, an action's redirect): the browser then loads it as a document instead, as the
 * server renders it (its menu), and the current page stays until it arrives. Links with a hash say
 * `reloadDocument` themselves: a loader's request carries no hash. An action whose redirect flashes a
 * message to such a page answers with `redirectDocument` (the account deletion's): here the root
 * loader's request, sent beside the document load, could take the message first.
 */
export function loadAsDocument({ request }: { request: Request }): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => {});
}
