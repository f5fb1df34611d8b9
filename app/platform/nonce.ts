import { createContext, useContext } from "react";

/** This response's script nonce, provided on the server by app/entry.server.tsx. */
export const NonceContext = createContext<string | undefined>(undefined);

let pageNonce: string | undefined;

/**
 * The nonce for an inline script of ours (the Content-Security-Policy allows no other). In the
 * browser it is read from the page's own scripts, so hydration renders the same attribute.
 */
export function useNonce() {
  const nonce = useContext(NonceContext);
  if (nonce !== undefined || typeof document === "undefined") return nonce;
  // The browser hides the attribute once used; the property keeps the value.
  pageNonce ??= document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  return pageNonce;
}
