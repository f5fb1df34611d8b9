import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PHONE_MESSAGES, TEXT_OPTED_OUT_MESSAGE } from "~/domain/phone";
import { CONSENT_NEEDS_PHONE_MESSAGE } from "~/schemas/debtor";
import { apiJson, decodeTurbo, formAction, postMultipart, replyErrors } from "./data-helpers";
import { debtorRow } from "./fixtures";
import { get, signIn, uniqueEmail, visibleText } from "./helpers";

/** The debtor's mobile and the user's consent to text it (decisions/069), through the API, the form and the CSV. */

async function addWithPhone(cookie: string, fields: Record<string, unknown>) {
  return apiJson("POST", "/debtors/add", {
    cookie,
    json: { full_name: "Acme Ltd", email: uniqueEmail("acme"), debt: 10, allow_duplicate: true, ...fields },
  });
}

describe("a debtor's mobile and consent to text", () => {
  it("stores the API's number in E.164 with the consent, who gave it and when", async () => {
    const owner = await signIn(uniqueEmail("phone-api"));
    const before = Date.now();
    const added = await addWithPhone(owner.cookie, { phone: "+44 7400 123456", text_consent: true });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toMatchObject({
      phone: "+447400123456",
      text_consent: true,
      text_consent_by: owner.email.toLowerCase(),
    });
    const row = await debtorRow(added.body.data.id as number);
    expect(row).toMatchObject({ phone: "+447400123456", text_consent_by: owner.email.toLowerCase() });
    expect(Number(row?.text_consent_at)).toBeGreaterThanOrEqual(before - 1000);
    // The debtor's page says it beside the main address.
    const page = await visibleText(await get(`/debtors/${added.body.data.id}`, { cookie: owner.cookie }));
    expect(page).toContain("Mobile +447400123456 · you may text them");
  });

  it("refuses a landline or a number without its country code with a field error, never a 500", async () => {
    const owner = await signIn(uniqueEmail("phone-refused"));
    const landline = await addWithPhone(owner.cookie, { phone: "+44 20 7946 0018" });
    expect(landline.status).toBe(400);
    expect(JSON.stringify(landline.body)).toContain(PHONE_MESSAGES.invalid);
    const local = await addWithPhone(owner.cookie, { phone: "07400 123456" });
    expect(local.status).toBe(400);
    expect(JSON.stringify(local.body)).toContain(PHONE_MESSAGES.international);
    const noNumber = await addWithPhone(owner.cookie, { text_consent: true });
    expect(noNumber.status).toBe(400);
    expect(JSON.stringify(noNumber.body)).toContain(CONSENT_NEEDS_PHONE_MESSAGE);
  });

  it("keeps the consent (when and by whom) while the number stays; a new number or an unticked box ends it", async () => {
    const owner = await signIn(uniqueEmail("phone-edit"));
    const added = await addWithPhone(owner.cookie, { phone: "+4915123456789", text_consent: true });
    const id = added.body.data.id as number;
    const edit = { id, full_name: "Acme Ltd", email: added.body.data.email as string, debt: 10 };
    await env.DB.prepare("UPDATE debtors SET text_consent_at = 1000 WHERE id = ?").bind(id).run();

    // The API without the fields keeps both; with the same number and consent, the first consent stays.
    expect((await apiJson("PUT", "/debtors/edit", { cookie: owner.cookie, json: edit })).status).toBe(200);
    expect(await debtorRow(id)).toMatchObject({ phone: "+4915123456789", text_consent_at: 1000 });
    await apiJson("PUT", "/debtors/edit", {
      cookie: owner.cookie,
      json: { ...edit, phone: "+49 151 23456789", text_consent: true },
    });
    expect(await debtorRow(id)).toMatchObject({ phone: "+4915123456789", text_consent_at: 1000 });

    // A new number without a word on consent: the consent was for the old number, it ends.
    await apiJson("PUT", "/debtors/edit", { cookie: owner.cookie, json: { ...edit, phone: "+4915199999999" } });
    expect(await debtorRow(id)).toMatchObject({
      phone: "+4915199999999",
      text_consent_at: null,
      text_consent_by: null,
    });

    // The form: ticked records a new consent now; unticked ends it; the number stays.
    const form = { intent: "debtor-edit", ...edit, id: String(id), debt: "10", phone: "+49 151 99999999" };
    const ticked = await formAction("/debtors-list", { ...form, text_consent: "on" }, owner.cookie);
    expect(ticked.status, JSON.stringify(ticked.data)).toBe(200);
    const consented = await debtorRow(id);
    expect(Number(consented?.text_consent_at)).toBeGreaterThan(1000);
    expect(consented?.text_consent_by).toBe(owner.email.toLowerCase());
    expect((await formAction("/debtors-list", form, owner.cookie)).status).toBe(200);
    expect(await debtorRow(id)).toMatchObject({ phone: "+4915199999999", text_consent_at: null });

    // A blank number removes it.
    expect((await formAction("/debtors-list", { ...form, phone: "" }, owner.cookie)).status).toBe(200);
    expect(await debtorRow(id)).toMatchObject({ phone: null, text_consent_at: null });
  });

  it("keeps what was typed on the form's refusal", async () => {
    const owner = await signIn(uniqueEmail("phone-form"));
    const res = await formAction(
      "/debtors-list",
      {
        intent: "debtor-add",
        full_name: "Acme Ltd",
        email: uniqueEmail("acme"),
        debt: "10",
        phone: "+33 1 23 45 67 89",
        text_consent: "on",
      },
      owner.cookie,
    );
    expect(res.status).toBe(400);
    expect(replyErrors(res.data).phone).toEqual([PHONE_MESSAGES.invalid]);
    expect(res.data.result.initialValue.phone).toBe("+33 1 23 45 67 89");
  });

  it("refuses consent for a number that texted STOP until it texts START", async () => {
    const owner = await signIn(uniqueEmail("phone-stop"));
    await env.DB.prepare("INSERT INTO text_opt_outs (owner_id, number, source, at) VALUES (?, ?, 'keyword', ?)")
      .bind(owner.userId, "+447400123456", Date.now())
      .run();
    const refused = await addWithPhone(owner.cookie, { phone: "+447400123456", text_consent: true });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(TEXT_OPTED_OUT_MESSAGE);
    // The number itself may be kept, without consent.
    const kept = await addWithPhone(owner.cookie, { phone: "+447400123456" });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ phone: "+447400123456", text_consent: false });
    // Another account's STOP is not this one's.
    const other = await signIn(uniqueEmail("phone-stop-other"));
    expect((await addWithPhone(other.cookie, { phone: "+447400123456", text_consent: true })).status).toBe(200);
  });

  it("imports a mobile column in E.164, without consent", async () => {
    const owner = await signIn(uniqueEmail("phone-csv"));
    const email = uniqueEmail("csv-acme");
    const form = new FormData();
    form.set("intent", "import-confirm");
    form.set("csv", `Name,Email,Amount,Mobile\nAcme GmbH,${email},10,+49 151 23456789\n`);
    const res = await postMultipart("/debtors/import.data", form, owner.cookie);
    const decoded = await decodeTurbo(res);
    expect(res.status, JSON.stringify(decoded?.data)).toBe(200);
    const row = await env.DB.prepare("SELECT phone, text_consent_at FROM debtors WHERE owner_id = ? AND email = ?")
      .bind(owner.userId, email.toLowerCase())
      .first();
    expect(row).toEqual({ phone: "+4915123456789", text_consent_at: null });
  });
});
