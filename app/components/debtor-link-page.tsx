import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import type { Translate } from "~/domain/i18n";
import type { DebtorLinkKey } from "~/domain/i18n/debtor-link";
import { formatMoney } from "~/domain/money";
import { type PageCopy, translate } from "~/domain/page-copy";
import { richText } from "./debtor-copy";

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

/** The page's title names the sender when the link is valid (their page, docs/decisions/058), else Dunly. */
export function debtorLinkMeta(title: string, sender?: string | null) {
  return [
    { title: `${title} · ${sender || "Dunly"}` },
    { name: "referrer", content: "strict-origin" },
    { name: "robots", content: "noindex" },
  ];
}

export function DebtorLinkPage({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-16 text-center">{children}</section>
  );
}

export function InvalidDebtorLink({ title, t }: { title: string; t: Translate<DebtorLinkKey> }) {
  return (
    <>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p role="alert" className="rounded-md border border-danger px-4 py-3 text-danger">
        {t("link.invalid")}
      </p>
      <p className="text-muted">{t("link.reopen")}</p>
    </>
  );
}

/**
 * What the debtor still owes the sender: the balances of their open invoices, per currency
 * (app/responses/portal.server.ts owedTotalsQuery). Nothing when nothing is open.
 */
export function OwedAmount({
  sender,
  totals,
  copy,
}: {
  sender: string;
  totals: { currency: string; cents: number }[];
  copy: PageCopy<DebtorLinkKey>;
}) {
  if (totals.length === 0) return null;
  const total = totals.map((o) => formatMoney(o.cents, o.currency, copy.locale)).join(" + ");
  return (
    <p className="break-words" data-testid="owed">
      {richText(translate(copy), "link.owed", { sender }, { total: <strong>{total}</strong> })}
    </p>
  );
}

type Owed = { currency: string; cents: number }[];

/**
 * The two steps of a page that records one answer of the debtor (/u/… opt-out, /p/… "I've paid"):
 * "confirm" asks with a button that POSTs (mail scanners only GET), "done" says it is recorded; both
 * with what is still owed. An invalid token shows InvalidDebtorLink under `title`.
 */
export function DebtorLinkSteps<V extends { state: "confirm" | "done"; sender: string; owed: Owed }>({
  view,
  copy,
  title,
  doneTitle,
  done,
  question,
  explanation,
  button,
}: {
  view: { state: "invalid" } | V;
  /** The page's words: the debtor's language, or English for a link that is not valid. */
  copy: PageCopy<DebtorLinkKey>;
  title: string;
  doneTitle: string;
  /** The "done" step's message (a status). */
  done: (view: V) => ReactNode;
  /** The "confirm" step's heading. */
  question: (view: V) => ReactNode;
  explanation: string;
  button: string;
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <DebtorLinkPage>
      {view.state === "invalid" ? (
        <InvalidDebtorLink title={title} t={translate(copy)} />
      ) : view.state === "done" ? (
        <>
          <h1 className="text-2xl font-bold">{doneTitle}</h1>
          <p role="status" className="break-words">
            {done(view)}
          </p>
          <OwedAmount sender={view.sender} totals={view.owed} copy={copy} />
        </>
      ) : (
        <Form method="post" className="flex flex-col items-center gap-6">
          <h1 className="text-2xl font-bold break-words">{question(view)}</h1>
          <OwedAmount sender={view.sender} totals={view.owed} copy={copy} />
          <p className="text-muted">{explanation}</p>
          <SubmitButton busy={busy} size="lg">
            {button}
          </SubmitButton>
        </Form>
      )}
    </DebtorLinkPage>
  );
}
