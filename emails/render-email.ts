import { toPlainText } from "@react-email/render";
import { createElement, type ReactElement, Suspense } from "react";
import { prerender } from "react-dom/static.edge";

export { toPlainText };

/** The doctype @react-email/render puts before every e-mail. */
const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** A `<link rel="preload" as="image">` React adds for every `<img>`: noise in an e-mail. */
function isImagePreload(tag: string) {
  const attributes = new Map<string, string>();
  for (const [, name, a, b, c] of tag.matchAll(/([a-z][a-z0-9-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/gi)) {
    attributes.set((name ?? "").toLowerCase(), a ?? b ?? c ?? "");
  }
  return attributes.get("rel") === "preload" && attributes.get("as") === "image";
}

/**
 * An e-mail's HTML: what `render()` of @react-email/render makes (without `pretty`), built from the
 * same parts without importing `render`, whose optional pretty-printer (prettier, ~85 KiB gzip) a
 * bundler cannot leave out. React's `prerender` (react-dom/static.edge) waits for the whole tree
 * like `render()` does and, unlike react-dom/server.edge, does not bring React's legacy string
 * renderer along. emails/render-email.test.ts checks the output is the same as `render()`'s.
 * Throws on any render error.
 */
export async function renderEmail(element: ReactElement): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(createElement(Suspense, null, element), {
    onError(error) {
      errors.push(error);
    },
  });
  const html = await new Response(prelude).text();
  if (errors.length > 0) throw errors[0];
  const body = html.replace(/<link\b[^>]*\/?>/gi, (tag) => (isImagePreload(tag) ? "" : tag));
  return `${XHTML_DOCTYPE}${body.replace(/<!DOCTYPE.*?>/, "")}`;
}
