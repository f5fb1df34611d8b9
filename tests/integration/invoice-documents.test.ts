import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { apiJson, decodeTurbo, postMultipart } from "./data-helpers";
import { db, makeDebtor, makeInvoice } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/**
 * Invoice documents (docs/decisions/053): the owner attaches an invoice's PDF (at most 10 MB, checked
 * to be a PDF), downloads or removes it; the debtor downloads it and a statement PDF from their
 * page, behind the signed link only. Nobody else reaches either.
 */

const config = () => readConfig(env);
const PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  (c) => c.charCodeAt(0),
);

function documentForm(
  bytes: Uint8Array<ArrayBuffer> | null,
  name = "Rechnung 2026-07 (Müller).pdf",
  intent = "invoice-document-attach",
) {
  const form = new FormData();
  form.set("intent", intent);
  if (bytes) form.set("document", new File([bytes], name, { type: "application/pdf" }));
  return form;
}

async function post(invoiceId: number, form: FormData, cookie?: string) {
  const res = await postMultipart(`/invoices/${invoiceId}/document.data`, form, cookie);
  const decoded = res.headers.get("Content-Type")?.includes("text/x-script") ? await decodeTurbo(res) : null;
  return { status: res.status, data: decoded?.data as { ok: boolean; message: string | null } | undefined };
}

const objectsOf = async (ownerId: string) =>
  (await env.DOCUMENTS.list({ prefix: `${ownerId}/` })).objects.map((o) => o.key);

async function setUp() {
  const user = await signIn(uniqueEmail("documents"));
  const debtor = await makeDebtor(user.userId, { debtCents: 60050, currency: "EUR" });
  await env.DB.prepare("UPDATE invoices SET number = ? WHERE id = ?").bind(`RE-${debtor.id}`, debtor.invoiceId).run();
  const url = await portalLink(db(), config(), { id: debtor.id, ownerId: user.userId, optOutKey: null });
  return { user, debtor, portal: new URL(url).pathname };
}

describe("the owner's invoice PDF", () => {
  it("is attached, downloaded under its name, replaced and removed; the bucket keeps one object, under the owner and debtor", async () => {
    const s = await setUp();
    const attached = await post(s.debtor.invoiceId, documentForm(PDF), s.user.cookie);
    expect(attached.status).toBe(200);
    expect(attached.data).toMatchObject({
      ok: true,
      message: "Rechnung 2026-07 (Müller).pdf attached. The debtor can download it from their page.",
    });
    const keys = await objectsOf(s.user.userId);
    expect(keys).toEqual([
      expect.stringMatching(new RegExp(`^${s.user.userId}/${s.debtor.id}/${s.debtor.invoiceId}-[0-9a-f]{32}\\.pdf$`)),
    ]);

    const download = await get(`/invoices/${s.debtor.invoiceId}/document`, { cookie: s.user.cookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(download.headers.get("Cache-Control")).toBe("private, no-store");
    expect(download.headers.get("Content-Disposition")).toContain(
      "filename*=UTF-8''Rechnung%202026-07%20(M%C3%BCller).pdf",
    );
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);

    // The API lists it with the invoice.
    const listed = await get(`/api/debtors/${s.debtor.id}/invoices`, { cookie: s.user.cookie });
    expect(JSON.stringify(await listed.json())).toContain('"document":{"name":"Rechnung 2026-07 (Müller).pdf"');

    // Replaced: the old object goes.
    expect((await post(s.debtor.invoiceId, documentForm(PDF, "v2.pdf"), s.user.cookie)).status).toBe(200);
    const replaced = await objectsOf(s.user.userId);
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).not.toBe(keys[0]);

    const removed = await post(s.debtor.invoiceId, documentForm(null, "", "invoice-document-remove"), s.user.cookie);
    expect(removed).toMatchObject({ status: 200, data: { ok: true, message: "The PDF was removed." } });
    expect(await objectsOf(s.user.userId)).toEqual([]);
    expect((await get(`/invoices/${s.debtor.invoiceId}/document`, { cookie: s.user.cookie })).status).toBe(404);
  });

  it("refuses what is not a PDF, an empty or missing file and one over 10 MB, naming why; nothing stored", async () => {
    const s = await setUp();
    const cases: [FormData, number, string][] = [
      [documentForm(PNG, "photo.pdf"), 400, "This is not a PDF. Please choose the invoice as a PDF file."],
      [documentForm(new TextEncoder().encode("<html>%PDF-</html>".padStart(2000, " "))), 400, "This is not a PDF"],
      [documentForm(new Uint8Array(0)), 400, "Please choose the invoice's PDF file."],
      [documentForm(null), 400, "Please choose the invoice's PDF file."],
    ];
    for (const [form, status, message] of cases) {
      const res = await post(s.debtor.invoiceId, form, s.user.cookie);
      expect(res.status).toBe(status);
      expect(res.data?.message).toContain(message);
    }
    // Just over 10 MB: read, and refused by its size; far over: refused while it streams in.
    const over = new Uint8Array(10 * 1024 * 1024 + 1);
    over.set(PDF);
    const justOver = await post(s.debtor.invoiceId, documentForm(over), s.user.cookie);
    expect(justOver).toMatchObject({
      status: 400,
      data: { message: "The PDF is larger than 10 MB. Please choose a smaller file." },
    });
    const far = new Uint8Array(11 * 1024 * 1024);
    far.set(PDF);
    const tooBig = await postMultipart(
      `/invoices/${s.debtor.invoiceId}/document.data`,
      documentForm(far),
      s.user.cookie,
    );
    expect(tooBig.status).toBe(413);
    expect(await objectsOf(s.user.userId)).toEqual([]);
  });

  it("another user's invoice answers 404 to download, attach and remove, and nothing changes", async () => {
    const s = await setUp();
    await post(s.debtor.invoiceId, documentForm(PDF), s.user.cookie);
    const before = await objectsOf(s.user.userId);
    const thief = await signIn(uniqueEmail("documents-thief"));
    expect((await get(`/invoices/${s.debtor.invoiceId}/document`, { cookie: thief.cookie })).status).toBe(404);
    expect((await post(s.debtor.invoiceId, documentForm(PDF), thief.cookie)).status).toBe(404);
    expect(
      (await post(s.debtor.invoiceId, documentForm(null, "", "invoice-document-remove"), thief.cookie)).status,
    ).toBe(404);
    expect(await objectsOf(thief.userId)).toEqual([]);
    expect(await objectsOf(s.user.userId)).toEqual(before);
    // Without a session: the sign-in page, nothing served.
    const anonymous = await get(`/invoices/${s.debtor.invoiceId}/document`);
    expect(anonymous.headers.get("Content-Type")).not.toBe("application/pdf");
  });

  it("goes with its debtor", async () => {
    const s = await setUp();
    await post(s.debtor.invoiceId, documentForm(PDF), s.user.cookie);
    expect(await objectsOf(s.user.userId)).toHaveLength(1);
    const res = await apiJson("DELETE", "/debtors/del", { cookie: s.user.cookie, json: { id: s.debtor.id } });
    expect(res.status).toBe(200);
    expect(await objectsOf(s.user.userId)).toEqual([]);
  });
});

describe("the debtor's page", () => {
  it("links the invoice's PDF behind its token; another debtor's reference or token reaches nothing", async () => {
    const s = await setUp();
    await post(s.debtor.invoiceId, documentForm(PDF), s.user.cookie);
    const page = await pageText(await get(s.portal));
    const href = new RegExp(`href="(${s.portal.replaceAll(".", "\\.")}/invoice/[^"]+)"`).exec(page)?.[1];
    expect(href).toBeDefined();
    expect(page).toContain(`Download invoice RE-${s.debtor.id} (PDF)`);
    const pdf = await get(href!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(PDF);

    // Another debtor of another user: their page's reference for this invoice is not one.
    const other = await setUp();
    const ref = href!.split("/").at(-1)!;
    expect((await get(`${other.portal}/invoice/${ref}`)).status).toBe(404);
    // A forged token: back to the page's 404.
    const forged = await get(`${s.portal.slice(0, -2)}xx/invoice/${ref}`);
    expect(forged.headers.get("Content-Type")).not.toBe("application/pdf");
    // An invoice without a PDF.
    const second = await makeInvoice(s.user.userId, s.debtor.id, { amountCents: 100, currency: "EUR" });
    void second;
    expect(await pageText(await get(s.portal))).toContain("Download this statement (PDF)");
  });

  it("downloads the statement as a PDF made now, its table running onto more pages", async () => {
    const s = await setUp();
    for (let n = 0; n < 60; n++) {
      await makeInvoice(s.user.userId, s.debtor.id, { number: `Ł-${n}`, amountCents: 1000 + n, currency: "EUR" });
    }
    const res = await get(`${s.portal}/statement.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="statement-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const text = new TextDecoder("latin1").decode(await res.arrayBuffer());
    expect(text.startsWith("%PDF-")).toBe(true);
    // 61 invoices do not fit one page: the table runs on.
    const pages = text.match(/\/Type \/Page\b(?!s)/g) ?? [];
    expect(pages.length).toBeGreaterThan(1);
    // A forged token gets no statement.
    const forged = await get(`${s.portal.slice(0, -2)}xx/statement.pdf`);
    expect(forged.headers.get("Content-Type")).not.toBe("application/pdf");
  });
});
