import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Pager } from "~/components/ui/pager";

/** One e-mail as the Settings → E-mails tab shows it: its times already written in the user's zone. */
export interface EmailLogRow {
  key: string;
  subject: string;
  recipient: string;
  status: "pending" | "sent" | "failed";
  error: string | null;
  /** When it was sent, or first tried. */
  when: string;
  attempts: number;
  maxAttempts: number;
  /** When the next attempt is due ('pending' recorded e-mails only). */
  nextTry: string | null;
}

const STATUS = {
  sent: { tone: "good", label: "Sent" },
  pending: { tone: "warn", label: "Not sent yet" },
  failed: { tone: "bad", label: "Not sent" },
} as const;

/**
 * Settings → E-mails: every e-mail Dunly sent for the user other than reminders (receipts to
 * debtors, copies of replies, notices, e-mails about the account), newest first, each with its
 * status and, when it could not be sent, why and what happens next.
 */
export function EmailLog({
  rows,
  page,
  pages,
  total,
  listed,
}: {
  rows: EmailLogRow[];
  page: number;
  pages: number;
  total: number;
  /** How many of the newest the list reaches (older ones are in the data export). */
  listed: number;
}) {
  return (
    <section aria-labelledby="email-log-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="email-log-title" className="text-xl font-semibold">
        E-mails
      </h2>
      <p className="mt-1 text-sm text-muted">
        What Dunly sent for you besides reminders: receipts to your debtors, copies of their replies, notices to you and
        e-mails about your account. One that could not be sent is tried again for about half a day. Reminders are on the{" "}
        <Link to="/report" className="underline">
          Report
        </Link>
        .
      </p>
      {rows.length === 0 ? (
        <p className="mt-6 text-sm">No e-mails yet.</p>
      ) : (
        <ul className="mt-6 flex flex-col divide-y divide-border" aria-label="E-mails, newest first">
          {rows.map((row) => (
            <li
              key={row.key}
              className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4"
            >
              <div className="min-w-0">
                <p className="break-words font-medium">{row.subject}</p>
                <p className="break-all text-sm text-muted">
                  To {row.recipient} · {row.when}
                </p>
                {row.status !== "sent" && row.error && (
                  <p className="mt-1 break-words text-sm">
                    {row.status === "pending" && row.attempts > 0
                      ? `Attempt ${row.attempts} of ${row.maxAttempts} failed${row.nextTry ? `; the next is due around ${row.nextTry}` : ""}. `
                      : ""}
                    <span className="text-muted">Why: </span>
                    {row.error}
                  </p>
                )}
              </div>
              <div className="shrink-0">
                <Badge tone={STATUS[row.status].tone}>{STATUS[row.status].label}</Badge>
              </div>
            </li>
          ))}
        </ul>
      )}
      {total > listed && page === pages && (
        <p className="mt-4 text-sm text-muted">
          The {listed.toLocaleString("en-US")} newest are listed; Export my data (Personal information) holds every one.
        </p>
      )}
      <div className="mt-4">
        <Pager page={page} pages={pages} />
      </div>
    </section>
  );
}
