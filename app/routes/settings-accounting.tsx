import { parseWithValibot } from "@conform-to/valibot";
import { redirect, useActionData, useFetcher } from "react-router";
import {
  confirmImport,
  connectionOf,
  previewImport,
  retryWriteback,
  setWriteback,
  syncedCounts,
  syncNow,
  writeBackAfter,
  writebackView,
  XeroError,
  xeroBankAccounts,
  xeroSetup,
  xeroUnavailable,
} from "~/accounting/index.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { AccountingWriteback } from "~/components/settings/accounting-writeback";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormStatus } from "~/components/ui/form-status";
import { getDb } from "~/db/client.server";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { appOrigin } from "~/platform/config.server";
import { entityScope } from "~/platform/scope.server";
import { flashToastCookie } from "~/platform/toast.server";
import {
  bankAccountLabel,
  WRITEBACK_INTENTS,
  WRITEBACK_UNKNOWN_ACCOUNT_MESSAGE,
  WritebackSchema,
} from "~/schemas/accounting-writeback";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import type { Route } from "./+types/settings-accounting";

const INTENTS = {
  preview: "accounting-preview",
  import: "accounting-import",
  sync: "accounting-sync",
  writeback: WRITEBACK_INTENTS.save,
  retry: WRITEBACK_INTENTS.retry,
} as const;

/** Why the bank accounts could not be read, in words (a connection made before Dunly asked to read them needs renewing). */
function bankAccountsRefused(error: XeroError) {
  return error.kind === "reconnect"
    ? "Xero did not let Dunly read your bank accounts: connect Xero again to allow it."
    : `Dunly could not read your bank accounts from Xero. ${error.message.replace(/ Dunly tries again at the next sync\.$/, "")}`;
}

/** The organisation's active bank accounts, or why they could not be read. */
async function bankAccountsOf(...args: Parameters<typeof xeroBankAccounts>) {
  try {
    return { accounts: await xeroBankAccounts(...args) };
  } catch (error) {
    if (error instanceof XeroError) return { error: bankAccountsRefused(error) };
    throw error;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** "29 Nov 2026, 09:58 UTC": when, without the browser's zone (the page renders on the server). */
const when = (ms: number) =>
  `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(ms)} UTC`;

/**
 * Settings → Accounting (decisions/060): connect Xero, see what the first import brings in and
 * confirm it, then the sync: when it last ran, what came in, its last error in words, "Sync now".
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const connection = await connectionOf(db, user.id);
  const counts = connection ? await syncedCounts(db, user.id) : null;
  const setup = connection ? xeroSetup(config, env, appOrigin(config, request.url)) : null;
  // The write-back's bank accounts are read from Xero while it is connected and imported (one call).
  const bank =
    setup && connection?.status === "connected" && connection.importedAt !== null
      ? await bankAccountsOf(db, setup, connection)
      : null;
  const writeback = connection ? await writebackView(db, user.id) : null;
  return {
    bank,
    writeback: writeback && {
      accountId: connection?.writebackAccountId ?? null,
      accountName: connection?.writebackAccountName ?? null,
      sent: writeback.sent,
      waiting: writeback.waiting.map((w) => ({
        id: w.id,
        status: w.status,
        what: `${(w.amountCents / 100).toFixed(2)} ${w.currency}${w.number ? ` on ${w.number}` : ""}, paid ${w.paidOn}`,
        error: w.lastError,
        next: w.status === "pending" && w.nextAttemptAt ? when(w.nextAttemptAt) : null,
      })),
    },
    unavailable: xeroUnavailable(config),
    standIn: !config.XERO_CLIENT_ID,
    connection: connection && {
      provider: connection.provider,
      tenantName: connection.tenantName,
      status: connection.status,
      connectedAt: when(connection.connectedAt),
      imported: connection.importedAt !== null,
      lastSync: connection.lastSyncAt ? when(connection.lastSyncAt) : null,
      lastError: connection.lastError,
      payments: connection.syncedPayments,
    },
    counts,
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const intent = intentOf(form.formData);
  const { env, config } = getApp(context);
  const setup = xeroSetup(config, env, appOrigin(config, request.url));
  if (!setup) return reply(intent, { status: 404, message: "Xero is not available." });
  const scope = entityScope(env, config, user, request);
  const db = scope.db;
  const sync = {
    ...scope,
    currency: user.defaultCurrency,
    maxSchedules: scope.caps.schedules,
  };
  if (intent === INTENTS.preview) {
    const connection = await connectionOf(db, user.id);
    if (connection?.status !== "connected") {
      return reply(intent, { status: 409, message: "Connect Xero first." });
    }
    try {
      const p = await previewImport(db, setup, connection, scope.today, user.defaultCurrency);
      const skipped =
        p.withoutEmail > 0 ? ` ${plural(p.withoutEmail, "customer")} without an e-mail address in Xero stay out.` : "";
      const message =
        p.invoices === 0
          ? `Xero has no open sales invoices to import.${skipped}`
          : `${plural(p.customers, "customer")}, ${plural(p.invoices, "open invoice")}, ${p.overdue.toLocaleString("en")} overdue: they join your cadence after you confirm.${skipped}`;
      return reply(intent, { message, count: p.invoices });
    } catch (error) {
      if (error instanceof Error && error.name === "XeroError")
        return reply(intent, { status: 502, message: error.message });
      throw error;
    }
  }
  if (intent === INTENTS.import) {
    const outcome = await confirmImport(sync, setup);
    if (!outcome.ok) return reply(intent, { status: 409, message: outcome.message });
    // The tab shows the sync from now on: the outcome follows as a toast.
    const message = `Imported ${plural(outcome.invoices, "invoice")} of ${plural(outcome.debtors, "customer")} from Xero.${outcome.joined > 0 ? ` Autopilot is now chasing ${plural(outcome.joined, "debtor")}.` : ""}`;
    return redirect("/iam/accounting", {
      status: 303,
      headers: { "Set-Cookie": flashToastCookie({ kind: "success", message }) },
    });
  }
  if (intent === INTENTS.writeback) {
    const submission = parseWithValibot(form.formData, { schema: WritebackSchema });
    if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
    const connection = await connectionOf(db, user.id);
    if (connection?.status !== "connected") {
      return reply(intent, { status: 409, message: "Connect Xero first.", result: submission.reply() });
    }
    if (submission.value.writeback !== "on") {
      await setWriteback(db, user.id, null, scope.now);
      return reply(intent, {
        message: "Dunly no longer records its payments in Xero: record them there yourself.",
        result: submission.reply(),
      });
    }
    const bank = await bankAccountsOf(db, setup, connection);
    if ("error" in bank) return reply(intent, { status: 502, message: bank.error, result: submission.reply() });
    const account = bank.accounts.find((a) => a.id === submission.value.account);
    if (!account) {
      return reply(intent, {
        status: 400,
        result: submission.reply({ fieldErrors: { account: [WRITEBACK_UNKNOWN_ACCOUNT_MESSAGE] } }),
      });
    }
    await setWriteback(db, user.id, account, scope.now);
    return reply(intent, {
      message: `Dunly records its payments on invoices from Xero there from now on, into ${bankAccountLabel(account)}.`,
      result: submission.reply(),
    });
  }
  if (intent === INTENTS.retry) {
    const id = Number(form.formData.get("id"));
    if (!Number.isSafeInteger(id) || !(await retryWriteback(db, user.id, id, scope.now))) {
      return reply(intent, { status: 404, message: "This payment is no longer waiting to be written to Xero." });
    }
    writeBackAfter(getApp(context).ctx, env, user.id);
    return reply(intent, { message: "Dunly tries again now: this page shows how it went when you reload it." });
  }
  if (intent === INTENTS.sync) {
    const outcome = await syncNow(sync, setup);
    if (!outcome.ok) return reply(intent, { status: 409, message: outcome.message });
    const parts = [
      outcome.invoices > 0 ? plural(outcome.invoices, "new invoice") : null,
      outcome.payments > 0 ? plural(outcome.payments, "payment") : null,
      outcome.closed > 0 ? `${plural(outcome.closed, "invoice")} voided` : null,
    ].filter(Boolean);
    return reply(intent, {
      message: `Synced with Xero: ${parts.length > 0 ? parts.join(", ") : "nothing changed"}.${outcome.complete ? "" : " More changes follow at the next sync."}`,
    });
  }
  return reply(intent, { status: 400, message: SOMETHING_WRONG });
}

function ImportStep() {
  const preview = useFetcher<typeof action>();
  const confirm = useFetcher<typeof action>();
  const previewResult = useFormResult(preview, [INTENTS.preview]);
  const importResult = useFormResult(confirm, [INTENTS.import]);
  const busy = preview.state !== "idle" || confirm.state !== "idle";
  const canImport = previewResult?.ok && (previewResult.count ?? 0) > 0 && !importResult?.ok;
  return (
    <div className="mt-4 flex flex-col gap-3" data-testid="accounting-import">
      <p className="text-sm">
        Nothing is imported yet. See what comes in first: customers with open sales invoices (never drafts or bills).
      </p>
      <preview.Form method="post">
        <input type="hidden" name="intent" value={INTENTS.preview} />
        <SubmitButton busy={preview.state !== "idle"} variant="outline" disabled={busy}>
          Show what comes in
        </SubmitButton>
      </preview.Form>
      <FormStatus result={previewResult} busy={preview.state !== "idle"} />
      {canImport && (
        <confirm.Form method="post">
          <input type="hidden" name="intent" value={INTENTS.import} />
          <SubmitButton busy={confirm.state !== "idle"} disabled={busy}>
            Import from Xero
          </SubmitButton>
        </confirm.Form>
      )}
      <FormStatus result={importResult} busy={confirm.state !== "idle"} />
    </div>
  );
}

function SyncNow() {
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [INTENTS.sync]);
  return (
    <fetcher.Form method="post" className="flex flex-col gap-2">
      <input type="hidden" name="intent" value={INTENTS.sync} />
      <SubmitButton busy={busy} className="self-start">
        Sync now
      </SubmitButton>
      <FormStatus result={result} busy={busy} />
    </fetcher.Form>
  );
}

export default function SettingsAccounting({ loaderData }: Route.ComponentProps) {
  const { unavailable, standIn, connection, counts, bank, writeback } = loaderData;
  // A form posted without JavaScript whose own place is no longer on the page (the import step once
  // imported): its answer shows here.
  const answered = useActionData<typeof action>();
  const orphan = answered && answered.intent === INTENTS.import && connection?.imported ? answered : null;
  return (
    <SettingsTabs current="accounting">
      <section aria-labelledby="accounting-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="accounting-title" className="text-xl font-semibold">
          Accounting
        </h2>
        <p className="mt-1 text-sm text-muted">
          Connect Xero and your open sales invoices come in by themselves: customers become debtors, and a payment
          recorded in Xero stops their reminders. Synced invoices are changed in Xero, never here.
        </p>
        {unavailable ? (
          <p className="mt-4 text-sm" data-testid="accounting-unavailable">
            {unavailable}
          </p>
        ) : !connection ? (
          <form method="post" action="/iam/accounting/xero/connect" className="mt-4 flex flex-col gap-2">
            <Button type="submit" className="self-start">
              Connect Xero
            </Button>
            {standIn && (
              <p className="text-xs text-muted">Local development: this connects to the Xero stand-in at /dev/xero.</p>
            )}
          </form>
        ) : (
          <div className="mt-4 flex flex-col gap-4">
            <p role="status" data-testid="accounting-status">
              {connection.status === "connected"
                ? `Connected to Xero${connection.tenantName ? `: ${connection.tenantName}` : ""} since ${connection.connectedAt}.`
                : "Xero refused: the connection has expired. Connect Xero again; nothing syncs until then."}
            </p>
            {connection.status === "reconnect" && (
              <form method="post" action="/iam/accounting/xero/connect">
                <Button type="submit">Connect Xero again</Button>
              </form>
            )}
            {connection.status === "connected" && !connection.imported && <ImportStep />}
            {orphan?.message && (
              <p role="status" className={orphan.ok ? "text-sm text-success" : "text-sm text-danger"}>
                {orphan.message}
              </p>
            )}
            {connection.imported && (
              <dl
                className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]"
                data-testid="accounting-sync"
              >
                <dt className="text-muted">Last sync</dt>
                <dd>{connection.lastSync ?? "Not yet"}</dd>
                <dt className="text-muted">Debtors from Xero</dt>
                <dd>{counts?.debtors ?? 0}</dd>
                <dt className="text-muted">Invoices from Xero</dt>
                <dd>{`${counts?.invoices ?? 0} (${counts?.open ?? 0} still owed)`}</dd>
                <dt className="text-muted">Payments from Xero</dt>
                <dd>{connection.payments}</dd>
                <dt className="text-muted">Payments Dunly wrote to Xero</dt>
                <dd>{writeback?.sent ?? 0}</dd>
              </dl>
            )}
            {connection.lastError && (
              <p className="text-sm text-danger" data-testid="accounting-error">
                {connection.lastError}
              </p>
            )}
            {connection.imported && connection.status === "connected" && <SyncNow />}
            {connection.imported && writeback && <AccountingWriteback bank={bank} writeback={writeback} />}
            <form method="post" action="/iam/accounting/xero/disconnect">
              <Button type="submit" variant="outline">
                Disconnect Xero
              </Button>
            </form>
          </div>
        )}
      </section>
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your accounting connection." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Accounting");
