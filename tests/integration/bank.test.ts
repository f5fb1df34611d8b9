import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { daytimeZone } from "../support/daytime-zone";
import { formAction, replyErrors } from "./data-helpers";
import { fireAndSend, resendDelivered } from "./engine-helpers";
import { db, makeDebtor, makeInvoice, makeSchedule } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/**
 * Bank-transfer details (docs/decisions/051): saved per currency in Settings → Bank transfer (checked
 * with ibantools), shown on every reminder and the portal of a debtor in that currency with the
 * reference for their invoices, and warned about before scheduling when no way to pay exists.
 */

const EUR = {
  intent: "bank-save",
  currency: "EUR",
  holder: "Ada Lovelace",
  iban: "DE89 3704 0044 0532 0130 00",
  bic: "COBADEFFXXX",
  reference: "{invoice}",
};

const accounts = (ownerId: string) =>
  env.DB.prepare("SELECT currency, iban, bic, holder, reference FROM bank_accounts WHERE owner_id = ?")
    .bind(ownerId)
    .all()
    .then((r) => r.results);

describe("bank transfer", () => {
  it("is saved per currency with field errors for a bad IBAN, and is the user's own", async () => {
    const a = await signIn(uniqueEmail("bank"));
    const page = await pageText(await get("/iam/bank", { cookie: a.cookie }));
    expect(page).toContain("No bank details yet");

    const bad = await formAction("/iam/bank", { ...EUR, iban: "DE89 3704 0044 0532 0130 01" }, a.cookie);
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data).iban?.[0]).toMatch(/not a valid IBAN/);
    expect((bad.data as { result: { initialValue: { iban: string } } }).result.initialValue.iban).toBe(
      "DE89 3704 0044 0532 0130 01",
    );
    const neither = await formAction("/iam/bank", { ...EUR, iban: "", bic: "" }, a.cookie);
    expect(replyErrors(neither.data).iban?.[0]).toMatch(/an IBAN, or an account number/);
    expect(await accounts(a.userId)).toEqual([]);

    const saved = await formAction("/iam/bank", EUR, a.cookie);
    expect(saved.status, JSON.stringify(saved.data)).toBe(200);
    const uk = await formAction(
      "/iam/bank",
      { intent: "bank-save", currency: "GBP", holder: "Ada Ltd", account_number: "31926819", sort_code: "60-16-13" },
      a.cookie,
    );
    expect(uk.status, JSON.stringify(uk.data)).toBe(200);
    expect(await accounts(a.userId)).toEqual([
      {
        currency: "EUR",
        iban: "DE89370400440532013000",
        bic: "COBADEFFXXX",
        holder: "Ada Lovelace",
        reference: "{invoice}",
      },
      { currency: "GBP", iban: null, bic: null, holder: "Ada Ltd", reference: "{invoice}" },
    ]);
    const listed = await pageText(await get("/iam/bank", { cookie: a.cookie }));
    expect(listed).toContain("DE89 3704 0044 0532 0130 00");
    expect(listed).toContain("60-16-13");

    // Another user sees none of it and cannot remove it.
    const b = await signIn(uniqueEmail("bank-other"));
    expect(await pageText(await get("/iam/bank", { cookie: b.cookie }))).not.toContain("DE89");
    const foreign = await formAction("/iam/bank", { intent: "bank-remove", currency: "EUR" }, b.cookie);
    expect(foreign.status).toBe(404);
    expect(await accounts(a.userId)).toHaveLength(2);
    expect((await formAction("/iam/bank", { intent: "bank-remove", currency: "GBP" }, a.cookie)).status).toBe(200);
    expect(await accounts(a.userId)).toHaveLength(1);
  });

  it("shows on the reminder and the portal of a debtor in that currency, with the reference for their invoices", async () => {
    const a = await signIn(uniqueEmail("bank-mail"));
    await formAction("/iam/bank", { ...EUR, reference: "Rechnung {invoice}" }, a.cookie);
    const debtor = await makeDebtor(a.userId, {
      fullName: "Euro Kunde",
      invoice: false,
      debtCents: 150_000,
      currency: "EUR",
      // Daytime now: the contact rules let it go at once.
      timeZone: daytimeZone(),
    });
    await makeInvoice(a.userId, debtor.id, {
      amountCents: 100_000,
      currency: "EUR",
      number: "R-1",
      dueOn: "2026-11-01",
    });
    await makeInvoice(a.userId, debtor.id, {
      amountCents: 50_000,
      currency: "EUR",
      number: "R-2",
      dueOn: "2026-11-10",
    });
    const schedule = await makeSchedule(a.userId, debtor.id, { frequency: "now" });
    const sent = await fireAndSend(schedule, Date.now() + 2 * 60_000);
    expect(sent).toMatchObject({ kind: "done", status: "sent" });
    const [mail] = await resendDelivered(debtor.email);
    const text = String(mail?.body.text ?? "");
    expect(text).toContain("Pay by bank transfer");
    expect(text).toContain("IBAN: DE89 3704 0044 0532 0130 00");
    expect(text).toContain("BIC: COBADEFFXXX");
    expect(text).toContain("Reference: Rechnung R-1, R-2");

    const url = await portalLink(db(), readConfig(env), { id: debtor.id, ownerId: a.userId, optOutKey: null });
    const portal = await pageText(await get(new URL(url).pathname));
    expect(portal).toContain("Pay by bank transfer");
    expect(portal).toContain("DE89 3704 0044 0532 0130 00");
    expect(portal).toContain("Rechnung R-1, R-2");
  });

  it("a USD debtor of an account with only EUR details is offered no transfer; the schedule page warns without any way to pay", async () => {
    const a = await signIn(uniqueEmail("bank-none"));
    await makeDebtor(a.userId, { fullName: "Dollar Debtor" });
    expect(await pageText(await get("/schedule", { cookie: a.cookie }))).toContain(
      "Your reminders offer no way to pay yet.",
    );
    expect((await formAction("/iam/bank", EUR, a.cookie)).status).toBe(200);
    expect(await pageText(await get("/schedule", { cookie: a.cookie }))).not.toContain(
      "Your reminders offer no way to pay yet.",
    );
  });
});
