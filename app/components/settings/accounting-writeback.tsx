import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormField } from "~/components/ui/field";
import { FormStatus } from "~/components/ui/form-status";
import { BOOKS_LABEL, type BooksProvider } from "~/domain/books";
import type { ActionResult } from "~/platform/action-result";
import { bankAccountLabel, WRITEBACK_INTENTS, WRITEBACK_SCHEMAS } from "~/schemas/accounting-writeback";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

/** A bank account of the books, as the picker shows it. */
interface ShownAccount {
  id: string;
  name: string;
  code: string | null;
}

/** The books' active bank accounts as Settings → Accounting read them, or why it could not. */
export type BankAccountsRead = { accounts: ShownAccount[] } | { error: string };

/** The setting and the payments not written yet (app/routes/settings-accounting.tsx's loader). */
export interface WritebackState {
  accountId: string | null;
  accountName: string | null;
  sent: number;
  waiting: {
    id: number;
    status: "pending" | "sent" | "failed";
    /** "120.00 USD on INV-004, paid 2026-11-29" */
    what: string;
    error: string | null;
    next: string | null;
  }[];
}

/** "Try again" on a payment Dunly stopped trying to write. */
function RetryWriteback({ id, describedBy }: { id: number; describedBy: string }) {
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [WRITEBACK_INTENTS.retry]);
  return (
    <fetcher.Form method="post" className="mt-1 flex flex-wrap items-center gap-2">
      <input type="hidden" name="intent" value={WRITEBACK_INTENTS.retry} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="outline" size="sm" disabled={busy || result?.ok} aria-describedby={describedBy}>
        Try again
      </Button>
      <FormStatus result={result} busy={busy} />
    </fetcher.Form>
  );
}

/**
 * "Record Dunly's payments in Xero" (or QuickBooks: the connected tool; decisions/063): off by
 * default; on, with a bank account read from the books, a payment recorded in Dunly on an invoice
 * from the tool is written there. Below, the payments not written yet, each with why in words.
 */
export function AccountingWriteback({
  provider,
  bank,
  writeback,
}: {
  provider: BooksProvider;
  bank: BankAccountsRead | null;
  writeback: WritebackState;
}) {
  const label = BOOKS_LABEL[provider];
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [WRITEBACK_INTENTS.save]);
  const [form, fields] = useValibotForm(WRITEBACK_SCHEMAS[provider], {
    id: "accounting-writeback",
    lastResult: busy ? undefined : result?.result,
    defaultValue: { writeback: writeback.accountId ? "on" : undefined, account: writeback.accountId ?? "" },
  });
  const accounts: ShownAccount[] = (bank && "accounts" in bank && bank.accounts) || [];
  const current = writeback.accountId;
  const listed =
    current && !accounts.some((a) => a.id === current)
      ? [
          {
            id: current,
            name: `${writeback.accountName ?? "The chosen account"} (no longer active in ${label})`,
            code: null,
          },
          ...accounts,
        ]
      : accounts;
  return (
    <section
      aria-labelledby="writeback-title"
      className="flex flex-col gap-3 border-t border-border pt-4"
      data-testid="accounting-writeback"
    >
      <h3 id="writeback-title" className="font-semibold">
        Payments recorded in Dunly
      </h3>
      <p className="text-sm text-muted" id="writeback-help">
        {writeback.accountId
          ? `On: a payment you record in Dunly on an invoice from ${label} (typed in, confirmed from "I've paid", or paid online) is recorded in ${label} too, against that invoice, into ${writeback.accountName ?? "the bank account you chose"}.`
          : `Off: Dunly does not write to your books. A payment you record in Dunly on an invoice from ${label} stops its reminders here; record it in ${label} too. Turn this on and Dunly records it in ${label} for you, against the invoice, into the bank account you choose.`}
      </p>
      {!bank ? null : "error" in bank ? (
        <p className="text-sm text-danger" data-testid="writeback-accounts-error">
          {bank.error}
        </p>
      ) : (
        <fetcher.Form method="post" {...getFormProps(form)} className="flex max-w-xl flex-col gap-3">
          <input type="hidden" name="intent" value={WRITEBACK_INTENTS.save} />
          <div className="flex items-center gap-2">
            <input
              {...getInputProps(fields.writeback, { type: "checkbox", value: "on" })}
              key={fields.writeback.key}
              className="h-4 w-4 accent-[var(--primary)]"
              aria-describedby="writeback-help"
            />
            <label htmlFor={fields.writeback.id} className="text-sm font-medium">
              {`Record Dunly's payments in ${label}`}
            </label>
          </div>
          <FormField meta={fields.account} label={`Bank account in ${label}`}>
            <select
              {...getSelectProps(fields.account)}
              key={fields.account.key}
              className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
            >
              <option value="">Choose a bank account</option>
              {listed.map((a) => (
                <option key={a.id} value={a.id}>
                  {bankAccountLabel(a)}
                </option>
              ))}
            </select>
          </FormField>
          {accounts.length === 0 && (
            <p className="text-sm">{`${label} has no active bank account: add one in ${label}, then reload this page.`}</p>
          )}
          <FormStatus result={result} busy={busy} formStatus={form.status} />
          <SubmitButton busy={busy} className="self-start">
            Save
          </SubmitButton>
        </fetcher.Form>
      )}
      {writeback.waiting.length > 0 && (
        <div>
          <h4 className="text-sm font-semibold">{`Not in ${label} yet`}</h4>
          <ul className="mt-2 flex flex-col gap-2 text-sm" data-testid="writeback-waiting">
            {writeback.waiting.map((w) => (
              <li key={w.id} className="rounded-lg border border-border p-3">
                <p className="font-medium" id={`writeback-${w.id}`}>
                  {w.what}
                </p>
                <p className={w.status === "failed" || w.error ? "text-danger" : "text-muted"}>
                  {w.error ?? `Waiting to be written to ${label}.`}
                  {w.next ? ` Next try: ${w.next}.` : ""}
                </p>
                {w.status === "failed" && <RetryWriteback id={w.id} describedBy={`writeback-${w.id}`} />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
