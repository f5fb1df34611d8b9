import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { paidClaimLink, portalLink } from "~/links/debtor-pages.server";
import { optOutLink } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { PORTAL_INTENTS } from "~/schemas/intents";
import { db, makeDebtor, makeInvoice, makeSignedInUser } from "./fixtures";
import { get, pageText, postForm, sayPaid, visibleText } from "./helpers";

/**
 * The debtor's pages (/d, /p, /u) in the debtor's language: their own (debtors.language), else the
 * user's (the language of their number format), else English; dates and amounts in that language's
 * locale; field errors in it with what was typed kept; only that language's words in the page.
 */

const config = () => readConfig(env);
const DUE = "2026-11-01";
/** €1,234.56 as Germany writes it: "1.234,56 €" (a no-break space before the sign). */
const GERMAN_AMOUNT = formatMoney(123456, "EUR", "de-DE");

/** A user (Sally Sender, number format `locale`) and their debtor (language `language`) owing RE-1, €1,234.56. */
async function setUp({ language, locale }: { language: string | null; locale: string | null }) {
  const user = await makeSignedInUser("Sally Sender");
  await env.DB.prepare("UPDATE users SET locale = ? WHERE id = ?").bind(locale, user.id).run();
  const debtor = await makeDebtor(user.id, { invoice: false, debtCents: 123456, currency: "EUR" });
  await env.DB.prepare("UPDATE debtors SET language = ? WHERE id = ?").bind(language, debtor.id).run();
  await makeInvoice(user.id, debtor.id, {
    number: `RE-1-${debtor.id}`,
    amountCents: 123456,
    currency: "EUR",
    dueOn: DUE,
  });
  const keyless = { id: debtor.id, ownerId: user.id, optOutKey: null };
  const path = async (link: Promise<string>) => new URL(await link).pathname;
  return {
    debtor,
    portal: await path(portalLink(db(), config(), keyless)),
    paid: await path(paidClaimLink(db(), config(), keyless)),
    optOut: await path(optOutLink(db(), config(), keyless)),
  };
}

async function page(path: string) {
  const res = await get(path);
  const raw = await pageText(res.clone());
  return { status: res.status, raw, text: await visibleText(res) };
}

const langOf = (raw: string) => /<html[^>]* lang="([^"]+)"/.exec(raw)?.[1];
const titleOf = (raw: string) => /<title>([^<]*)<\/title>/.exec(raw)?.[1];

describe("a debtor whose language is German", () => {
  it("reads /d in German: lang, title, headings, skip link, statuses; amounts and dates as in Germany; no other language in the page", async () => {
    const s = await setUp({ language: "de", locale: "en-US" });
    const { status, raw, text } = await page(s.portal);
    expect(status).toBe(200);
    expect(GERMAN_AMOUNT).toBe("1.234,56\u00a0€");
    expect(langOf(raw)).toBe("de");
    expect(titleOf(raw)).toBe("Ihre Kontoübersicht · Sally Sender");
    expect(text).toContain("Ihre Kontoübersicht bei Sally Sender");
    expect(text).toContain("Offene Rechnungen");
    expect(text).toContain("Zum Inhalt springen");
    expect(text).toContain(`Noch offen insgesamt: ${GERMAN_AMOUNT}`);
    expect(text).toContain(`Fällig${formatDate(DUE, "de-DE")}`);
    expect(text).toContain("Rechnung beanstanden");
    // The words the browser gets are German only: not the English, French, Spanish or Dutch ones.
    for (const other of ["Your statement from", "Open invoices", "Votre relevé", "Facturas pendientes", "Uw overzicht"])
      expect(raw).not.toContain(other);
  });

  it("reads /p and /u in German", async () => {
    const s = await setUp({ language: "de", locale: null });
    const paid = await page(s.paid);
    expect(langOf(paid.raw)).toBe("de");
    expect(titleOf(paid.raw)).toBe("Ich habe bezahlt · Sally Sender");
    expect(paid.text).toContain("Teilen Sie Sally Sender mit, dass Sie bezahlt haben");
    expect(paid.text).toContain(`Noch offen bei Sally Sender: ${GERMAN_AMOUNT}`);
    expect(paid.text).toContain("Welche Rechnungen haben Sie bezahlt?");
    expect(paid.text).toContain("Ja, ich habe bezahlt");

    const optOut = await page(s.optOut);
    expect(langOf(optOut.raw)).toBe("de");
    expect(titleOf(optOut.raw)).toBe("Erinnerungen abbestellen · Sally Sender");
    expect(optOut.text).toContain("Zahlungserinnerungen von Sally Sender an");
    expect(optOut.text).toContain("Oder: Kontaktieren Sie mich anders");
    expect(optOut.text).toContain(`Noch offen bei Sally Sender: ${GERMAN_AMOUNT}`);
  });

  it("a field error on /p comes back in German, with what was typed kept; after the claim, the thanks in German", async () => {
    const s = await setUp({ language: "de", locale: "en-US" });
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const refused = await sayPaid(s.paid, [
      ["paid_on", future],
      ["reference", "Überweisung 42"],
    ]);
    expect(refused.status).toBe(400);
    const raw = await pageText(refused);
    expect(langOf(raw)).toBe("de");
    expect(raw).toContain("Das Zahlungsdatum darf nicht in der Zukunft liegen.");
    expect(raw).toContain('value="Überweisung 42"');
    expect(raw).toContain(`value="${future}"`);
    // An ambiguous amount: its readings, in German words.
    const ambiguous = await sayPaid(s.paid, [["amount", "1,234"]], { tick: "none" });
    expect(ambiguous.status).toBe(400);
    expect(await pageText(ambiguous)).toMatch(/„1,234“ kann als .+ oder als .+ gelesen werden/);

    // An amount is read as the page writes amounts: "12,50" is €12.50 on a German page.
    const told = await sayPaid(s.paid, [["amount", "12,50"]], { tick: "none" });
    expect(told.status).toBe(200);
    expect(await visibleText(told)).toContain(
      `Vielen Dank. Sally Sender wurde informiert, dass Sie ${formatMoney(1250, "EUR", "de-DE")} am `,
    );
    const row = await env.DB.prepare("SELECT paid_claim_cents AS cents FROM debtors WHERE id = ?")
      .bind(s.debtor.id)
      .first<{ cents: number }>();
    expect(row?.cents).toBe(1250);
  });

  it("a refusal on /d (a promise outside the window) comes back in German, the date kept", async () => {
    const s = await setUp({ language: "de", locale: null });
    const refused = await postForm(s.portal, { intent: PORTAL_INTENTS.promise, promised_on: "2099-01-01" });
    expect(refused.status).toBe(400);
    const raw = await pageText(refused);
    expect(langOf(raw)).toBe("de");
    expect(raw).toMatch(/Bitte wählen Sie ein Datum vom .+ bis zum .+\./);
    expect(raw).toContain('value="2099-01-01"');
  });
});

describe("a debtor with no language of their own", () => {
  it("follows the user's number format: fr-FR writes the pages in French, amounts as in France", async () => {
    const s = await setUp({ language: null, locale: "fr-FR" });
    const portal = await page(s.portal);
    expect(langOf(portal.raw)).toBe("fr");
    expect(portal.text).toContain("Votre relevé de Sally Sender");
    expect(portal.text).toContain(`Total restant dû : ${formatMoney(123456, "EUR", "fr-FR")}`);
    expect((await page(s.paid)).text).toContain("Indiquez à Sally Sender que vous avez payé");
    expect(langOf((await page(s.optOut)).raw)).toBe("fr");
  });

  it("of a user without a format: English, as before (lang, headings, US amounts)", async () => {
    const s = await setUp({ language: null, locale: null });
    const portal = await page(s.portal);
    expect(langOf(portal.raw)).toBe("en");
    expect(titleOf(portal.raw)).toBe("Your statement · Sally Sender");
    expect(portal.text).toContain("Your statement from Sally Sender");
    expect(portal.text).toContain("Total still owed: €1,234.56");
    expect(portal.text).toContain("Skip to content");
    expect(langOf((await page(s.paid)).raw)).toBe("en");
    expect((await page(s.optOut)).text).toContain("Stop payment reminders from Sally Sender to");
  });

  it("a Spanish or Dutch debtor of an English user reads their own language", async () => {
    for (const [language, heading] of [
      ["es", "Su estado de cuenta de Sally Sender"],
      ["nl", "Uw overzicht van Sally Sender"],
    ] as const) {
      const s = await setUp({ language, locale: "en-GB" });
      const portal = await page(s.portal);
      expect(langOf(portal.raw)).toBe(language);
      expect(portal.text).toContain(heading);
    }
  });
});

describe("a link that is not valid", () => {
  it("names no debtor, so it answers in English", async () => {
    const res = await get("/d/not-a-token");
    expect(res.status).toBe(404);
    const raw = await pageText(res);
    expect(langOf(raw)).toBe("en");
    expect(raw).toContain("This link is no longer valid.");
  });
});
