import { parseWithValibot } from "@conform-to/valibot";
import { useEffect } from "react";
import { redirect, useActionData, useFetcher, useRevalidator } from "react-router";
import {
  type AccountingSetups,
  accountingSetups,
  BOOKS_LABEL,
  BooksError,
  bankAccountsOfBooks,
  type ConnectionRow,
  connectionOf,
  importStep,
  previewImport,
  queueNextStep,
  quickBooksUnavailable,
  retryWriteback,
  setWriteback,
  sourceFor,
  startImport,
  syncedCounts,
  syncNow,
  writeBackAfter,
  writebackView,
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
import { BOOKS_STALE_MS } from "~/reminders/index.server";
import {
  bankAccountLabel,
  WRITEBACK_INTENTS,
  WRITEBACK_SCHEMAS,
  writebackUnknownAccountMessage,
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
function bankAccountsRefused(error: BooksError, label: string) {
  return error.kind === "reconnect"
    ? `${label} did not let Dunly read your bank accounts: connect ${label} again to allow it.`
    : `Dunly could not read your bank accounts from ${label}. ${error.message.replace(/[.:]? Dunly tries again at the next sync\.$/, ".")}`;
}

/** The books' active bank accounts (through the connected tool's client), or why they could not be read; null: the tool is not available here. */
async function bankAccountsOf(
  db: Parameters<typeof bankAccountsOfBooks>[0],
  setups: AccountingSetups,
  connection: ConnectionRow,
) {
  try {
    const read = bankAccountsOfBooks(db, setups, connection);
    return read ? { accounts: await read } : null;
  } catch (error) {
    if (error instanceof BooksError) return { error: bankAccountsRefused(error, BOOKS_LABEL[connection.provider]) };
    throw error;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** "29 Nov 2026, 09:58 UTC": when, without the browser's zone (the page renders on the server). */
const when = (ms: number) =>
  `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(ms)} UTC`;

/**
 * Settings → Accounting (decisions/060, 061, 063): connect Xero or QuickBooks Online (one at a time),
 * see what the first import brings in and confirm it, then the sync: when it last ran, what came
 * in, its last error in words, "Sync now"; and writing Dunly's payments back to the books. Every
 * word names the connected tool.
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const connection = await connectionOf(db, user.id);
  const counts = connection ? await syncedCounts(db, user.id, connection.provider) : null;
  // Writing payments back (decisions/063): the books' bank accounts are read while the tool is
  // connected and imported (one call to it).
  const bank =
    connection?.status === "connected" && connection.importedAt !== null
      ? await bankAccountsOf(db, accountingSetups(config, env, appOrigin(config, request.url)), connection)
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
    providers: [
      {
        id: "xero",
        label: "Xero",
        unavailable: xeroUnavailable(config),
        standIn: config.XERO_CLIENT_ID ? null : "/dev/xero",
      },
      {
        id: "quickbooks",
        label: "QuickBooks",
        unavailable: quickBooksUnavailable(config),
        standIn: config.QUICKBOOKS_CLIENT_ID ? null : "/dev/quickbooks",
      },
    ],
    connection: connection && {
      provider: connection.provider,
      label: BOOKS_LABEL[connection.provider],
      tenantName: connection.tenantName,
      status: connection.status,
      connectedAt: when(connection.connectedAt),
      imported: connection.importedAt !== null,
      // The first import under way (a large organisation's goes on in the background).
      importing: connection.importedAt === null && connection.importPage !== null,
      lastSync: connection.lastSyncAt ? when(connection.lastSyncAt) : null,
      lastError: connection.lastError,
      payments: connection.syncedPayments,
      // No successful sync for a day: reminders of its invoices wait (decisions/060).
      paused:
        connection.importedAt !== null &&
        (connection.lastSyncAt ?? connection.connectedAt) < Date.now() - BOOKS_STALE_MS,
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
  const setups = accountingSetups(config, env, appOrigin(config, request.url));
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
      return reply(intent, { status: 409, message: "Connect your accounting tool first." });
    }
    const label = BOOKS_LABEL[connection.provider];
    const source = sourceFor(db, setups, connection);
    if (!source) return reply(intent, { status: 404, message: `${label} is not available.` });
    try {
      const p = await previewImport(source, scope.today, user.defaultCurrency);
      const skipped =
        p.withoutEmail > 0
          ? ` ${plural(p.withoutEmail, "customer")} without an e-mail address in ${label} stay out.`
          : "";
      const message =
        p.invoices === 0
          ? `${label} has no open sales invoices to import.${skipped}`
          : p.more
            ? `At least ${plural(p.customers, "customer")}, ${plural(p.invoices, "open invoice")}, ${p.overdue.toLocaleString("en")} overdue (the preview reads the first ${p.invoices.toLocaleString("en")} open invoices; the others come in with them): they join your cadence after you confirm.${skipped}`
            : `${plural(p.customers, "customer")}, ${plural(p.invoices, "open invoice")}, ${p.overdue.toLocaleString("en")} overdue: they join your cadence after you confirm.${skipped}`;
      return reply(intent, { message, count: p.invoices });
    } catch (error) {
      if (error instanceof BooksError) return reply(intent, { status: 502, message: error.message });
      throw error;
    }
  }
  if (intent === INTENTS.import) {
    const started = await startImport(sync, setups);
    if (!started.ok) return reply(intent, { status: 409, message: started.message });
    // The first step here: a small organisation is imported before the answer; a larger one goes on
    // in the background, a step every 30 seconds, and the tab shows its progress.
    const step = await importStep(sync, setups);
    await queueNextStep(env, user.id, step);
    // The tab shows the sync (or the import's progress, or its error) from now on: the outcome follows as a toast.
    const toast =
      step.kind === "done"
        ? {
            kind: "success" as const,
            message: `Imported ${plural(step.invoices, "invoice")} of ${plural(step.debtors, "customer")} from ${step.label}.${step.skipped > 0 ? ` ${plural(step.skipped, "invoice")} of customers without an e-mail address stayed out.` : ""}${step.joined > 0 ? ` Autopilot is now chasing ${plural(step.joined, "debtor")}.` : ""}`,
          }
        : step.kind === "stopped"
          ? { kind: "error" as const, message: step.message }
          : step.kind === "wait"
            ? { kind: "error" as const, message: `${step.message} The import goes on in a minute.` }
            : {
                kind: "success" as const,
                message: `Importing from ${started.label}: the first invoices are in, the rest follow in the background.`,
              };
    return redirect("/iam/accounting", { status: 303, headers: { "Set-Cookie": flashToastCookie(toast) } });
  }
  if (intent === INTENTS.sync) {
    const outcome = await syncNow(sync, setups);
    if (!outcome.ok) return reply(intent, { status: 409, message: outcome.message });
    const parts = [
      outcome.invoices > 0 ? plural(outcome.invoices, "new invoice") : null,
      outcome.payments > 0 ? plural(outcome.payments, "payment") : null,
      outcome.closed > 0 ? `${plural(outcome.closed, "invoice")} voided` : null,
      outcome.changed > 0 ? `${plural(outcome.changed, "invoice")} changed` : null,
    ].filter(Boolean);
    return reply(intent, {
      message: `Synced with ${outcome.label}: ${parts.length > 0 ? parts.join(", ") : "nothing changed"}.${outcome.complete ? "" : " More changes follow at the next sync."}`,
    });
  }
  if (intent === INTENTS.writeback) {
    const connection = await connectionOf(db, user.id);
    const provider = connection?.provider ?? "xero";
    const label = BOOKS_LABEL[provider];
    const submission = parseWithValibot(form.formData, { schema: WRITEBACK_SCHEMAS[provider] });
    if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
    if (connection?.status !== "connected") {
      return reply(intent, { status: 409, message: `Connect ${label} first.`, result: submission.reply() });
    }
    if (submission.value.writeback !== "on") {
      await setWriteback(db, user.id, null, scope.now);
      return reply(intent, {
        message: `Dunly no longer records its payments in ${label}: record them there yourself.`,
        result: submission.reply(),
      });
    }
    const bank = await bankAccountsOf(db, setups, connection);
    if (!bank) return reply(intent, { status: 409, message: `${label} is not available.`, result: submission.reply() });
    if ("error" in bank) return reply(intent, { status: 502, message: bank.error, result: submission.reply() });
    const account = bank.accounts.find((a) => a.id === submission.value.account);
    if (!account) {
      return reply(intent, {
        status: 400,
        result: submission.reply({ fieldErrors: { account: [writebackUnknownAccountMessage(provider)] } }),
      });
    }
    await setWriteback(db, user.id, account, scope.now);
    return reply(intent, {
      message: `Dunly records its payments on invoices from ${label} there from now on, into ${bankAccountLabel(account)}.`,
      result: submission.reply(),
    });
  }
  if (intent === INTENTS.retry) {
    const id = Number(form.formData.get("id"));
    if (!Number.isSafeInteger(id) || !(await retryWriteback(db, user.id, id, scope.now))) {
      return reply(intent, { status: 404, message: "This payment is no longer waiting to be written to your books." });
    }
    writeBackAfter(getApp(context).ctx, env, user.id);
    return reply(intent, { message: "Dunly tries again now: this page shows how it went when you reload it." });
  }
  return reply(intent, { status: 400, message: SOMETHING_WRONG });
}

function ImportStep({ label }: { label: string }) {
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
            {`Import from ${label}`}
          </SubmitButton>
        </confirm.Form>
      )}
      <FormStatus result={importResult} busy={confirm.state !== "idle"} />
    </div>
  );
}

/**
 * The first import going on in the background: what is in so far, refreshed every few seconds
 * while the page is open (a link without JavaScript).
 */
function ImportProgress({ label, debtors, invoices }: { label: string; debtors: number; invoices: number }) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") void revalidate();
    }, 4000);
    return () => clearInterval(timer);
  }, [revalidate, state]);
  return (
    <div className="flex flex-col gap-1" data-testid="accounting-importing">
      <p role="status" className="text-sm">
        {`Importing from ${label}: ${plural(invoices, "invoice")} of ${plural(debtors, "customer")} in so far. A large organisation takes a few minutes, within ${label}'s limits; you can leave this page.`}
      </p>
      <a href="/iam/accounting" className="self-start text-sm underline underline-offset-2">
        Refresh
      </a>
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
  const { providers, connection, counts, bank, writeback } = loaderData;
  // A form posted without JavaScript whose own place is no longer on the page (the import step once
  // imported): its answer shows here.
  const answered = useActionData<typeof action>();
  const orphan =
    answered && answered.intent === INTENTS.import && (connection?.imported || connection?.importing) ? answered : null;
  return (
    <SettingsTabs current="accounting">
      <section aria-labelledby="accounting-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="accounting-title" className="text-xl font-semibold">
          Accounting
        </h2>
        <p className="mt-1 text-sm text-muted">
          Connect Xero or QuickBooks and your open sales invoices come in by themselves: customers become debtors, and a
          payment recorded in your books stops their reminders. Synced invoices are changed in your books, never here.
        </p>
        {!connection ? (
          <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-start">
            {providers.map((p) =>
              p.unavailable ? (
                <p key={p.id} className="text-sm" data-testid={`accounting-unavailable-${p.id}`}>
                  {p.unavailable}
                </p>
              ) : (
                <form
                  key={p.id}
                  method="post"
                  action={`/iam/accounting/${p.id}/connect`}
                  className="flex flex-col gap-2"
                >
                  <Button type="submit" className="self-start">
                    {`Connect ${p.label}`}
                  </Button>
                  {p.standIn && (
                    <p className="text-xs text-muted">{`Local development: this connects to the ${p.label} stand-in at ${p.standIn}.`}</p>
                  )}
                </form>
              ),
            )}
          </div>
        ) : (
          <div className="mt-4 flex flex-col gap-4">
            <p role="status" data-testid="accounting-status">
              {connection.status === "connected"
                ? `Connected to ${connection.label}${connection.tenantName ? `: ${connection.tenantName}` : ""} since ${connection.connectedAt}.`
                : `${connection.label} refused: the connection has expired. Connect ${connection.label} again; nothing syncs until then.`}
            </p>
            {connection.status === "reconnect" && (
              <form method="post" action={`/iam/accounting/${connection.provider}/connect`}>
                <Button type="submit">{`Connect ${connection.label} again`}</Button>
              </form>
            )}
            {connection.status === "connected" && !connection.imported && !connection.importing && (
              <ImportStep label={connection.label} />
            )}
            {connection.importing && (
              <ImportProgress
                label={connection.label}
                debtors={counts?.debtors ?? 0}
                invoices={counts?.invoices ?? 0}
              />
            )}
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
                <dt className="text-muted">{`Debtors from ${connection.label}`}</dt>
                <dd>{counts?.debtors ?? 0}</dd>
                <dt className="text-muted">{`Invoices from ${connection.label}`}</dt>
                <dd>{`${counts?.invoices ?? 0} (${counts?.open ?? 0} still owed)`}</dd>
                <dt className="text-muted">{`Payments from ${connection.label}`}</dt>
                <dd>{connection.payments}</dd>
                {writeback && (
                  <>
                    <dt className="text-muted">{`Payments Dunly wrote to ${connection.label}`}</dt>
                    <dd>{writeback.sent}</dd>
                  </>
                )}
              </dl>
            )}
            {connection.paused && (
              <p className="text-sm text-danger" data-testid="accounting-paused">
                {`Reminders of invoices from ${connection.label} are waiting: Dunly has not synced with ${connection.label} for over 24 hours, so nobody is chased for an invoice paid there meanwhile. They go out once a sync succeeds; reminders of the invoices you added in Dunly go on.`}
              </p>
            )}
            {connection.lastError && (
              <p className="text-sm text-danger" data-testid="accounting-error">
                {connection.lastError}
              </p>
            )}
            {connection.imported && connection.status === "connected" && <SyncNow />}
            {connection.imported && writeback && (
              <AccountingWriteback provider={connection.provider} bank={bank} writeback={writeback} />
            )}
            <form method="post" action={`/iam/accounting/${connection.provider}/disconnect`}>
              <Button type="submit" variant="outline">
                {`Disconnect ${connection.label}`}
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
