import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  saveTextSettingsStatement,
  TEXT_SETTINGS_OFF,
  takeTextStatement,
  textSettingsOf,
  textsUsed,
} from "~/db/text-allowance";
import { DEFAULT_TEXT_TEMPLATE } from "~/domain/text-message";
import { isTextOptedOut, optInNumber, optOutAddress, optOutNumber } from "~/responses/index.server";
import { TEXT_COUNTRIES_NEEDED_MESSAGE, TEXT_COUNTRY_MESSAGE } from "~/schemas/text-settings";
import { formAction, replyErrors } from "./data-helpers";
import { db, debtorRow, makeDebtor, makeUser } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/** A number's STOP and START, the account's text settings and the month's allowance (decisions/069). */

async function debtorWithPhone(ownerId: string, phone: string, consent = true) {
  const debtor = await makeDebtor(ownerId);
  await env.DB.prepare("UPDATE debtors SET phone = ?, text_consent_at = ?, text_consent_by = ? WHERE id = ?")
    .bind(phone, consent ? 1000 : null, consent ? "user@example.com" : null, debtor.id)
    .run();
  return debtor;
}

describe("STOP and START", () => {
  it("STOP ends the consent of every debtor of the account with that number at once; START gives it back", async () => {
    const user = await makeUser();
    const other = await makeUser();
    const a = await debtorWithPhone(user.id, "+447400123456");
    const b = await debtorWithPhone(user.id, "+447400123456");
    const elsewhere = await debtorWithPhone(other.id, "+447400123456");

    expect((await optOutNumber(db(), user.id, "+447400123456", "keyword", 5000)).debtorIds.sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect(await isTextOptedOut(db(), user.id, "+447400123456")).toBe(true);
    expect(await debtorRow(a.id)).toMatchObject({ text_consent_at: null, text_consent_by: null });
    // Another account's consent to the same number is its own.
    expect(await debtorRow(elsewhere.id)).toMatchObject({ text_consent_at: 1000 });
    expect(await isTextOptedOut(db(), other.id, "+447400123456")).toBe(false);
    // A repeat changes nothing.
    expect((await optOutNumber(db(), user.id, "+447400123456", "keyword", 6000)).debtorIds).toEqual([]);

    expect((await optInNumber(db(), user.id, "+447400123456", 7000)).debtorIds.sort()).toEqual([a.id, b.id].sort());
    expect(await isTextOptedOut(db(), user.id, "+447400123456")).toBe(false);
    expect(await debtorRow(b.id)).toMatchObject({ text_consent_at: 7000, text_consent_by: "START from +447400123456" });
    // START from a number that never said STOP gives no consent.
    const never = await debtorWithPhone(user.id, "+4915123456789", false);
    expect((await optInNumber(db(), user.id, "+4915123456789", 8000)).debtorIds).toEqual([]);
    expect(await debtorRow(never.id)).toMatchObject({ text_consent_at: null });
    // The user's own opt-out of a number is not lifted by the debtor's START.
    const mine = await debtorWithPhone(user.id, "+33612345678");
    await optOutNumber(db(), user.id, "+33612345678", "user", 9000);
    expect((await optInNumber(db(), user.id, "+33612345678", 9500)).debtorIds).toEqual([]);
    expect(await isTextOptedOut(db(), user.id, "+33612345678")).toBe(true);
    expect(await debtorRow(mine.id)).toMatchObject({ text_consent_at: null });
  });

  it("an opt-out from e-mails ends the consent to text too", async () => {
    const user = await makeUser();
    const debtor = await debtorWithPhone(user.id, "+33612345678");
    await optOutAddress({ env, db: db() }, user.id, debtor.email, 9000);
    expect(await debtorRow(debtor.id)).toMatchObject({ status: "opted_out", text_consent_at: null });
  });
});

describe("text settings and the month's allowance", () => {
  it("is off until saved, and keeps only the countries Dunly offers", async () => {
    const user = await makeUser();
    expect(await textSettingsOf(db(), user.id)).toEqual(TEXT_SETTINGS_OFF);
    await saveTextSettingsStatement(db(), user.id, { enabled: true, countries: ["GB", "US"] }, 1);
    expect(await textSettingsOf(db(), user.id)).toEqual({
      enabled: true,
      countries: ["GB", "US"],
      template: DEFAULT_TEXT_TEMPLATE,
    });
    await saveTextSettingsStatement(db(), user.id, { enabled: false, countries: ["IE", "XX"] }, 2);
    expect(await textSettingsOf(db(), user.id)).toEqual({
      enabled: false,
      countries: ["IE"],
      template: DEFAULT_TEXT_TEMPLATE,
    });
  });

  it("takes one text at a time up to the allowance, never past it, even taken together", async () => {
    const user = await makeUser();
    const take = () => takeTextStatement(db(), user.id, "2026-11", 3);
    const results = await db().batch([take(), take(), take(), take(), take()]);
    expect(results.map((r) => r.length)).toEqual([1, 1, 1, 0, 0]);
    expect(await textsUsed(db(), user.id, "2026-11")).toBe(3);
    // A new month starts again; a plan without texts takes none.
    expect(await takeTextStatement(db(), user.id, "2026-12", 3)).toEqual([{ used: 1 }]);
    expect(await takeTextStatement(db(), user.id, "2027-01", 0)).toEqual([]);
    // Given a text's key: once per key, never again once a text was asked under it.
    const key = `test-allowance:${crypto.randomUUID()}`;
    expect(await takeTextStatement(db(), user.id, "2027-02", 5, key)).toEqual([{ used: 1 }]);
    await env.DB.prepare(
      "INSERT INTO text_messages (owner_id, idempotency_key, \"to\", body, provider, status, attempted_at) VALUES (?, ?, '+447400123456', 'x', 'standin', 'pending', 0)",
    )
      .bind(user.id, key)
      .run();
    expect(await takeTextStatement(db(), user.id, "2027-02", 5, key)).toEqual([]);
    expect(await takeTextStatement(db(), user.id, "2027-02", 5, `${key}:other`)).toEqual([{ used: 2 }]);
    expect(await textsUsed(db(), user.id, "2027-01")).toBe(0);
  });
});

describe("Settings → Text messages", () => {
  it("is off at first, says the plan's allowance and the US and Canada note, and saves the channel and countries", async () => {
    const user = await signIn(uniqueEmail("texts-tab"));
    const page = await pageText(await get("/iam/texts", { cookie: user.cookie }));
    expect(page).toContain("Send text messages");
    expect(page).toContain("carriers deliver business texts only from a registered sender");
    // A new account is in the trial, on the Medium plan.
    expect(page).toContain("0 of 100 text messages used this month on your Medium plan");
    // When it renews, in the user's date format (the first of next month), never an ISO date.
    expect(page).toMatch(/\(renews [A-Z][a-z]{2} 1, \d{4}\)/);

    const saved = await formAction("/iam/texts", { intent: "texts-save", enabled: "on", countries: "GB" }, user.cookie);
    expect(saved.status, JSON.stringify(saved.data)).toBe(200);
    expect(await textSettingsOf(db(), user.userId)).toEqual({
      enabled: true,
      countries: ["GB"],
      template: DEFAULT_TEXT_TEMPLATE,
    });

    const none = await formAction("/iam/texts", { intent: "texts-save", enabled: "on" }, user.cookie);
    expect(none.status).toBe(400);
    expect(replyErrors(none.data).countries).toEqual([TEXT_COUNTRIES_NEEDED_MESSAGE]);
    const unknown = await formAction("/iam/texts", { intent: "texts-save", countries: "XX" }, user.cookie);
    expect(unknown.status).toBe(400);
    expect(replyErrors(unknown.data).countries).toEqual([TEXT_COUNTRY_MESSAGE]);
    // Refusals change nothing.
    expect(await textSettingsOf(db(), user.userId)).toEqual({
      enabled: true,
      countries: ["GB"],
      template: DEFAULT_TEXT_TEMPLATE,
    });

    const off = await formAction("/iam/texts", { intent: "texts-save", countries: "GB" }, user.cookie);
    expect(off.status).toBe(200);
    expect(await textSettingsOf(db(), user.userId)).toEqual({
      enabled: false,
      countries: ["GB"],
      template: DEFAULT_TEXT_TEMPLATE,
    });
  });
});
