import { lazy, Suspense, useState } from "react";
import { notify } from "~/components/toast";
import { formatDayOf } from "~/domain/dates";
import type { ActionResult } from "~/platform/action-result";
import type { ReplyView } from "~/responses/index.server";
import { useLocale } from "~/ui/root-data";
import { ReplyAnswers } from "./debtor-responses";
import type { Invoice } from "./invoice-view";

/** The payment form is a chunk of its own, fetched when "Record a payment" is opened. */
const PaymentForm = lazy(() => import("./payment-form").then((m) => ({ default: m.PaymentForm })));

function toast(data: ActionResult) {
  if (data.message) notify(data.ok ? "success" : "error", data.message);
}

/**
 * The debtor's e-mail replies to reminders (docs/decisions/020-inbound-replies.md), newest first:
 * who wrote, the subject, the text as plain text (React escapes it; HTML is never rendered as sent),
 * the attachments' names and sizes. An unhandled reply holds the reminders and offers Resume,
 * Record a payment and Mark handled; an automatic one is labelled and offers nothing.
 */
export function DebtorReplies({
  debtor,
  invoices,
  replies,
  timeZone,
}: {
  debtor: { id: number; currency: string; debtCents: number; paidCents: number };
  invoices: Invoice[];
  replies: readonly ReplyView[];
  timeZone: string;
}) {
  const locale = useLocale();
  const debtorId = debtor.id;
  const owedCents = Math.max(0, debtor.debtCents - debtor.paidCents);
  const anyOpen = replies.some((r) => !r.auto && r.handledAt === null);
  const [paying, setPaying] = useState(false);
  return (
    <div className="flex flex-col gap-3" data-testid="debtor-replies">
      <h2 className="text-xl font-semibold">Replies</h2>
      <ul className="flex flex-col gap-3">
        {replies.map((r) => {
          const textId = `reply-${r.id}`;
          const open = !r.auto && r.handledAt === null;
          return (
            <li key={r.id} className="flex flex-col gap-2 rounded-lg border border-border bg-background p-3 text-sm">
              <p id={textId} className="break-words">
                <strong>{r.auto ? "Automatic reply" : "Replied"}</strong>
                {`: ${r.subject || "(no subject)"}`}
                <span className="text-muted">{` · ${r.fromAddress} · ${formatDayOf(r.createdAt, timeZone, locale)}`}</span>
                {open ? <span className="text-muted"> · reminders held</span> : null}
                {r.handledAt !== null && !r.auto ? <span className="text-muted"> · handled</span> : null}
              </p>
              {r.text ? (
                <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words font-sans text-sm">{r.text}</pre>
              ) : null}
              {r.attachments.length > 0 ? (
                <p className="text-muted">
                  {`Attachments (not kept): ${r.attachments.map((a) => `${a.name} (${a.size} bytes)`).join(", ")}`}
                </p>
              ) : null}
              {open ? <ReplyAnswers replyId={r.id} debtorId={debtorId} describedBy={textId} area="page" /> : null}
            </li>
          );
        })}
      </ul>
      {anyOpen && owedCents > 0 ? (
        <details
          id="record-payment"
          className="rounded-lg border border-border bg-background p-3"
          onToggle={(event) => setPaying(event.currentTarget.open)}
        >
          <summary className="cursor-pointer text-sm font-medium">Record a payment (handles the reply)</summary>
          <div className="pt-3">
            {paying ? (
              <Suspense fallback={<p className="text-sm text-muted">Loading the payment form…</p>}>
                <PaymentForm debtor={debtor} maxCents={owedCents} invoices={invoices} onResult={toast} />
              </Suspense>
            ) : null}
          </div>
        </details>
      ) : null}
    </div>
  );
}
