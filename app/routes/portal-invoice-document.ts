import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { DEBTOR_LINK_HEADERS } from "~/components/debtor-link-page";
import { getDb } from "~/db/client.server";
import { invoiceDocument, pdfHeaders } from "~/ledger/index.server";
import { invoiceRefs, verifyPortalToken } from "~/links/index.server";
import { portalState } from "~/responses/index.server";
import type { Route } from "./+types/portal-invoice-document";

/**
 * An invoice's PDF from the debtor's page: /d/<portal token>/invoice/<ref>. The reference means
 * something only with this token and among the debtor's own open or disputed invoices; the file is
 * streamed from the private bucket, never cached. Anything else: the page's own 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const back = redirect(`/d/${encodeURIComponent(params.token)}`, 303);
  const target = await verifyPortalToken(db, config, params.token);
  if (!target) return back;
  const state = await portalState(db, target);
  if (!state) return back;
  const refOf = await invoiceRefs(config, target.key);
  const refs = await Promise.all(state.invoices.map(async (i) => ({ id: i.id, ref: await refOf(i.id) })));
  const invoice = refs.find((r) => r.ref === params.ref);
  if (!invoice) return new Response("No such invoice.", { status: 404, headers: DEBTOR_LINK_HEADERS });
  const found = await invoiceDocument(env, db, target.ownerId, invoice.id);
  if (!found) return new Response("This invoice has no PDF.", { status: 404, headers: DEBTOR_LINK_HEADERS });
  return new Response(found.object.body, {
    headers: { ...DEBTOR_LINK_HEADERS, ...pdfHeaders(found.fileName, found.object.size) },
  });
}
