import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { MAX_PDF_BYTES, NOT_A_PDF, PDF_MISSING, PDF_TOO_LARGE } from "~/domain/upload-limits";
import { deleteObjectsUnder } from "~/platform/r2.server";

/**
 * An invoice's own PDF (docs/decisions/053): uploaded by its owner to the DOCUMENTS bucket, at most
 * MAX_PDF_BYTES, checked to be a PDF by its first bytes (the name and declared type are ignored),
 * stored under a key the server makes (`<owner>/<debtor>/<invoice>-<random>.pdf`, so a debtor's
 * or an account's documents go with them), and served only to the owner or behind the debtor's
 * signed link. One per invoice: a new one replaces it.
 */

export class DocumentRejected extends Error {}

/** "%PDF-": every PDF starts so (a few producers put up to 1 KB of junk first, which readers accept). */
function isPdf(bytes: Uint8Array) {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-");
}

/** A name that is safe in a header and readable: the file's own, else the invoice's number. */
export function documentFileName(name: string | null | undefined, number: string | null) {
  const base = (name ?? "")
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N} ._()-]+/gu, "-")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 120);
  const fallback = `${(number ?? "invoice").replace(/[^\p{L}\p{N}._-]+/gu, "-")}.pdf`;
  const named = base && base !== ".pdf" ? base : fallback;
  return /\.pdf$/i.test(named) ? named : `${named}.pdf`;
}

/** The owner's invoice a document goes with: its debtor, number and current document; undefined when not theirs or void. */
function documentOf(db: Db, ownerId: string, invoiceId: number) {
  return db
    .select({
      debtorId: invoices.debtorId,
      number: invoices.number,
      status: invoices.status,
      key: invoices.documentKey,
      name: invoices.documentName,
      size: invoices.documentSize,
    })
    .from(invoices)
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoiceId)))
    .get();
}

/**
 * Stores `file` as the owner's invoice's PDF, replacing the one before (deleted once the row points
 * to the new one). Throws DocumentRejected with the field's message for a missing, empty, too large
 * or non-PDF file; undefined when the invoice is not the owner's (or void): nothing stored.
 */
export async function attachInvoiceDocument(
  env: Pick<Env, "DOCUMENTS">,
  db: Db,
  ownerId: string,
  invoiceId: number,
  file: unknown,
  now = Date.now(),
): Promise<{ name: string; size: number } | undefined> {
  if (!(file instanceof File) || file.size === 0) throw new DocumentRejected(PDF_MISSING);
  if (file.size > MAX_PDF_BYTES) throw new DocumentRejected(PDF_TOO_LARGE);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!isPdf(bytes)) throw new DocumentRejected(NOT_A_PDF);
  const invoice = await documentOf(db, ownerId, invoiceId);
  if (!invoice || invoice.status === "void") return undefined;
  const name = documentFileName(file.name, invoice.number);
  const key = `${ownerId}/${invoice.debtorId}/${invoiceId}-${crypto.randomUUID().replaceAll("-", "")}.pdf`;
  await env.DOCUMENTS.put(key, bytes, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: { owner: ownerId, invoice: String(invoiceId) },
  });
  const updated = await db
    .update(invoices)
    .set({ documentKey: key, documentName: name, documentSize: bytes.byteLength, updatedAt: now })
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoiceId)))
    .returning({ id: invoices.id });
  if (updated.length === 0) {
    // The invoice went meanwhile: its object must not stay behind.
    await env.DOCUMENTS.delete(key);
    return undefined;
  }
  if (invoice.key && invoice.key !== key) await env.DOCUMENTS.delete(invoice.key);
  return { name, size: bytes.byteLength };
}

/** Removes the owner's invoice's PDF; false when it had none or is not theirs. */
export async function removeInvoiceDocument(
  env: Pick<Env, "DOCUMENTS">,
  db: Db,
  ownerId: string,
  invoiceId: number,
  now = Date.now(),
) {
  const invoice = await documentOf(db, ownerId, invoiceId);
  if (!invoice?.key) return false;
  const removed = await db
    .update(invoices)
    .set({ documentKey: null, documentName: null, documentSize: null, updatedAt: now })
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoiceId), eq(invoices.documentKey, invoice.key)))
    .returning({ id: invoices.id });
  if (removed.length === 0) return false;
  await env.DOCUMENTS.delete(invoice.key);
  return true;
}

/** Deletes a deleted debtor's invoice PDFs (their rows went with the debtor). */
export function deleteDebtorDocuments(env: Pick<Env, "DOCUMENTS">, ownerId: string, debtorId: number) {
  return deleteObjectsUnder(env.DOCUMENTS, `${ownerId}/${debtorId}/`);
}

/**
 * The owner's invoice's PDF to download: the object and its file name; undefined when the invoice
 * is not theirs, has none, or its object is missing.
 */
export async function invoiceDocument(env: Pick<Env, "DOCUMENTS">, db: Db, ownerId: string, invoiceId: number) {
  const invoice = await documentOf(db, ownerId, invoiceId);
  if (!invoice?.key) return undefined;
  const object = await env.DOCUMENTS.get(invoice.key);
  if (!object) return undefined;
  return { object, fileName: documentFileName(invoice.name, invoice.number) };
}

/** The headers of a PDF download: never cached, never sniffed, saved under its name. */
export function pdfHeaders(fileName: string, size: number) {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return {
    "Content-Type": "application/pdf",
    "Content-Length": String(size),
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  };
}
