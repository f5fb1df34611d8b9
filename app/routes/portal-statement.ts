import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { bankTransfersFor, listBankAccounts } from "~/bank/index.server";
import { DEBTOR_LINK_HEADERS } from "~/components/debtor-link-page";
import { getDb } from "~/db/client.server";
import { todayIn } from "~/domain/statement";
import { statementFileName } from "~/domain/statement-document";
import { verifyPortalToken } from "~/links/index.server";
import { mail } from "~/mail/index.server";
import { portalState, statementDocumentOf } from "~/responses/index.server";
import type { Route } from "./+types/portal-statement";

/**
 * The debtor's statement as a PDF, from their page: /d/<portal token>/statement.pdf. Made fresh on
 * each request from what is open now (the mail Worker lays it out), never stored, never cached, and
 * only behind the signed token. Any token that is not valid: the page's own 404.
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyPortalToken(db, config, params.token);
  if (!target) return redirect(`/d/${encodeURIComponent(params.token)}`, 303);
  const [state, accounts] = await Promise.all([portalState(db, target), listBankAccounts(db, target.ownerId)]);
  if (!state) return redirect(`/d/${encodeURIComponent(params.token)}`, 303);
  const today = todayIn(state.debtor.timeZone, Date.now());
  const open = state.invoices.filter((i) => i.status === "open");
  const doc = statementDocumentOf(state, {
    sender: target.senderName,
    today,
    bankTransfer: bankTransfersFor(accounts, open, state.debtor.fullName),
    portalUrl: new URL(`/d/${params.token}`, url).href,
  });
  const made = await mail.statementPdf(env, doc);
  if (!made.ok) {
    return new Response("The statement could not be made just now. Please try again in a minute.", {
      status: 503,
      headers: { ...DEBTOR_LINK_HEADERS, "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" },
    });
  }
  return new Response(new Uint8Array(made.pdf), {
    headers: {
      ...DEBTOR_LINK_HEADERS,
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${statementFileName(today)}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
