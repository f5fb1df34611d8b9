import type { ReactNode } from "react";
import { formatMoney } from "~/domain/money";

/**
 * What the pages a debtor reaches from a reminder share (/d/… their page, /u/… opt-out, /p/… "I've paid"): the
 * signed token is in the URL, so Referer carries the origin only (strict-origin; not no-referrer,
 * under which the page's own form posts `Origin: null` before hydration and the CSRF check refuses
 * it) and the page is never cached or indexed; the same frame; the same answer to a link that is
 * not valid.
 */
export const DEBTOR_LINK_HEADERS = {
  "Referrer-Policy": "strict-origin",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
};

export function debtorLinkMeta(title: string) {
  return [
    { title: `${title} · Dunly` },
    { name: "referrer", content: "strict-origin" },
    { name: "robots", content: "noindex" },
  ];
}

export function DebtorLinkPage({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-16 text-center">{children}</section>
  );
}

export function InvalidDebtorLink({ title }: { title: string }) {
  return (
    <>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p role="alert" className="rounded-md border border-danger px-4 py-3 text-danger">
        This link is no longer valid.
      </p>
      <p className="text-muted">Please open the link from the most recent reminder again.</p>
    </>
  );
}

/**
 * What the debtor still owes the sender: the balances of their open invoices, per currency
 * (app/responses/portal.server.ts owedTotalsQuery). Nothing when nothing is open.
 */
export function OwedAmount({ sender, totals }: { sender: string; totals: { currency: string; cents: number }[] }) {
  if (totals.length === 0) return null;
  return (
    <p className="break-words" data-testid="owed">
      {`Still owed to ${sender}: `}
      <strong>{totals.map((t) => formatMoney(t.cents, t.currency)).join(" + ")}</strong>
    </p>
  );
}
