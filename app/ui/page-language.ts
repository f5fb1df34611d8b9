import { useMatches } from "react-router";
import type { PageCopy } from "~/domain/page-copy";

/**
 * The language of a page written in its reader's language (a debtor's pages: their `copy`,
 * app/domain/page-copy.ts), for the document's `lang` and its skip link; null for every other page
 * (written in English). Read from the deepest route whose data carries a copy.
 */
export function usePageLanguage(): { lang: string; skip: string | undefined } | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const copy = (matches[i]?.loaderData as { copy?: PageCopy<string> } | null | undefined)?.copy;
    if (copy?.language) return { lang: copy.language, skip: copy.messages["link.skip"] };
  }
  return null;
}
