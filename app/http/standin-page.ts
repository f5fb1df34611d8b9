/**
 * The local stand-ins' pages (Stripe, Resend, Xero, QuickBooks: development and test only): plain
 * HTML with the same frame, a banner saying nothing real is touched, and buttons in the tool's
 * colour. Every value put into a page goes through escapeHtml.
 */

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (ch) => entities[ch] ?? ch);

export interface StandInPage {
  title: string;
  /** The banner's words, as HTML (the page's own, never a value from a request). */
  banner: string;
  /** The buttons' colour (white text on it) and their border. */
  accent: { background: string; border: string };
  /** The page's width ("48rem"). */
  width: string;
  /** The page's own rules, after the frame's. */
  css: string;
  body: string;
}

export function standInPage(page: StandInPage): string {
  const { background, border } = page.accent;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Dunly</title>
<style>body{font-family:system-ui,sans-serif;max-width:${page.width};margin:2rem auto;padding:0 1rem;color:#222;background:#fff}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid ${border};background:${background};color:#fff;cursor:pointer}
button.secondary{background:#fff;color:${background}}button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #222;outline-offset:2px}
.banner{background:#fff7d6;border:1px solid #e6c200;padding:.5rem 1rem;border-radius:6px}
${page.css}</style>
</head><body><main><h1>${escapeHtml(page.title)}</h1>
<p class="banner">${page.banner}</p>
${page.body}</main></body></html>`;
}
