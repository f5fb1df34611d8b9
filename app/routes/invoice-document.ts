import * as v from "valibot";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { MAX_PDF_BYTES, PDF_TOO_LARGE } from "~/domain/upload-limits";
import {
  attachInvoiceDocument,
  DocumentRejected,
  invoiceDocument,
  pdfHeaders,
  removeInvoiceDocument,
} from "~/ledger/index.server";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { FormIdSchema } from "~/schemas/ids";
import { INVOICE_DOCUMENT_INTENTS } from "~/schemas/intents";
import type { Route } from "./+types/invoice-document";

/**
 * An invoice's own PDF, for its owner (docs/decisions/053): GET downloads it, POST attaches one
 * (multipart, at most 10 MB, checked to be a PDF) or removes it. Another user's invoice answers
 * 404 and nothing changes.
 */

const NOT_FOUND = "No such invoice.";

function invoiceIdOf(param: string | undefined) {
  const parsed = v.safeParse(FormIdSchema, param);
  return parsed.success ? parsed.output : null;
}

export async function loader({ params, context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const { env } = getApp(context);
  const id = invoiceIdOf(params.id);
  const found = id === null ? undefined : await invoiceDocument(env, getDb(env.DB), user.id, id);
  if (!found) return new Response(NOT_FOUND, { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(found.object.body, { headers: pdfHeaders(found.fileName, found.object.size) });
}

export async function action({ params, context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env } = getApp(context);
  const db = getDb(env.DB);
  // The file plus room for the multipart envelope, counted while the body streams in.
  const form = await readForm(request, {
    maxBytes: MAX_PDF_BYTES + 64 * 1024,
    tooLarge: { intent: INVOICE_DOCUMENT_INTENTS.attach, message: PDF_TOO_LARGE },
  });
  if ("refused" in form) return form.refused;
  const intent = intentOf(form.formData);
  const id = invoiceIdOf(params.id);
  if (id === null) return reply(intent, { status: 404, message: NOT_FOUND });
  switch (intent) {
    case INVOICE_DOCUMENT_INTENTS.attach: {
      try {
        const stored = await attachInvoiceDocument(env, db, user.id, id, form.formData.get("document"));
        if (!stored) return reply(intent, { status: 404, message: NOT_FOUND });
        return reply(intent, { message: `${stored.name} attached. The debtor can download it from their page.` });
      } catch (error) {
        if (error instanceof DocumentRejected) return reply(intent, { status: 400, message: error.message });
        throw error;
      }
    }
    case INVOICE_DOCUMENT_INTENTS.remove: {
      const removed = await removeInvoiceDocument(env, db, user.id, id);
      if (!removed) return reply(intent, { status: 404, message: NOT_FOUND });
      return reply(intent, { message: "The PDF was removed." });
    }
    default:
      return reply(intent, { status: 400, message: "This form could not be read. Please reload the page." });
  }
}
