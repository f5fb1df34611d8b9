import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TEMPLATE_IDS } from "~/domain/presets";
import { apiJson, decodeTurbo, formAction, type Json, postMultipart, replyErrors } from "./data-helpers";
import { fireAndSend, resendDelivered } from "./engine-helpers";
import { debtorRowsOf, makeDebtor, makeSchedule } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";

/**
 * The debtor's language (decisions/055): set on the debtor by the form, the JSON API and the CSV
 * import; the reminder the consumer sends is in it, with the user's own text only in the language
 * they wrote it in, else Dunly's own text in the debtor's language (never another language's).
 */

const LANGUAGE_ERROR = "Please choose one of the languages en, de, fr, es, nl";

const setLocale = (userId: string, locale: string | null) =>
  env.DB.prepare("UPDATE users SET locale = ? WHERE id = ?").bind(locale, userId).run();
const setLanguage = (debtorId: number, language: string | null) =>
  env.DB.prepare("UPDATE debtors SET language = ? WHERE id = ?").bind(language, debtorId).run();
const languageOf = async (debtorId: number) =>
  (
    await env.DB.prepare("SELECT language FROM debtors WHERE id = ?")
      .bind(debtorId)
      .first<{ language: string | null }>()
  )?.language;

/** The user's own German text for every step and tone. */
async function germanTexts(userId: string) {
  for (const template of TEMPLATE_IDS)
    for (const tone of [1, 2, 3])
      await env.DB.prepare(
        "INSERT INTO message_templates (owner_id, template, tone, language, subject, body) VALUES (?, ?, ?, 'de', ?, ?)",
      )
        .bind(
          userId,
          template,
          tone,
          "Eigener Betreff über {total}",
          "Hallo {contactName},\n\nmein eigener Text.\n\n{statement}\n\n{signature}",
        )
        .run();
}

/** The one reminder a "now" schedule sends the debtor, through the real consumer and the fake Resend. */
async function sendOne(userId: string, debtorId: number, email: string) {
  const schedule = await makeSchedule(userId, debtorId, { frequency: "now" });
  expect(await fireAndSend(schedule, Date.now() + 2 * 60_000)).toMatchObject({ kind: "done", status: "sent" });
  const [mail] = await resendDelivered(email);
  return { subject: String(mail?.body.subject), text: String(mail?.body.text ?? ""), html: String(mail?.body.html) };
}

const ENGLISH_WORDS = /\b(reminder|payment|invoices?|overdue|Total due|Already paid|View your statement)\b/i;

describe("the reminder's language through the consumer", () => {
  it("the user's text in German only: a German debtor gets it, a French one Dunly's French, never German or English", async () => {
    const user = await signIn(uniqueEmail("lang-matrix"));
    await germanTexts(user.userId);
    const german = await makeDebtor(user.userId, { fullName: "Greta Gläubig", currency: "EUR", debtCents: 123_456 });
    await setLanguage(german.id, "de");
    const french = await makeDebtor(user.userId, { fullName: "Fanny Facture", currency: "EUR", debtCents: 123_456 });
    await setLanguage(french.id, "fr");

    const de = await sendOne(user.userId, german.id, german.email);
    expect(de.subject).toBe("Eigener Betreff über 1.234,56 €");
    expect(de.text).toContain("mein eigener Text.");
    expect(de.text).toContain("Offener Gesamtbetrag");
    expect(de.html).toContain('lang="de"');
    expect(de.text).not.toMatch(ENGLISH_WORDS);

    const fr = await sendOne(user.userId, french.id, french.email);
    expect(fr.text).not.toContain("mein eigener Text");
    expect(fr.subject).not.toContain("Eigener Betreff");
    expect(fr.subject).not.toMatch(ENGLISH_WORDS);
    expect(fr.subject).toMatch(/1\s234,56\s€/);
    expect(fr.html).toContain('lang="fr"');
    expect(fr.text).not.toMatch(ENGLISH_WORDS);
    // The opt-out link is in every language's footer.
    expect(fr.html).toContain("data-opt-out");
  });

  it("a debtor without a language follows the user's: a French number format writes French", async () => {
    const user = await signIn(uniqueEmail("lang-follow"));
    await setLocale(user.userId, "fr-FR");
    const debtor = await makeDebtor(user.userId, { fullName: "Sans Langue", currency: "EUR", debtCents: 50_000 });
    expect(await languageOf(debtor.id)).toBeNull();
    const sent = await sendOne(user.userId, debtor.id, debtor.email);
    expect(sent.html).toContain('lang="fr"');
    expect(sent.subject).toMatch(/500,00\s€/);
    expect(sent.text).not.toMatch(ENGLISH_WORDS);

    // An English user's debtor without a language: English, as always.
    const english = await signIn(uniqueEmail("lang-en"));
    const plain = await makeDebtor(english.userId, { fullName: "Plain English", currency: "USD", debtCents: 50_000 });
    const out = await sendOne(english.userId, plain.id, plain.email);
    expect(out.html).toContain('lang="en"');
    expect(out.subject).toContain("$500.00");
    expect(out.text).toContain("Total due");
  });
});

describe("setting the debtor's language", () => {
  const debtor = {
    kind: "person",
    full_name: "Lena Sprache",
    debt: 100,
    active_strategy: 1,
    currency: "EUR",
  };

  it("the JSON API takes a code or a name, answers it, refuses an unknown one naming the five, and keeps it when absent", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("lang-api"));
    const added = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { ...debtor, email: uniqueEmail("lena"), language: "German" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const [row] = await debtorRowsOf(userId);
    expect(await languageOf(row!.id)).toBe("de");
    const listed = await apiJson("GET", "/debtors", { cookie });
    expect(JSON.stringify(listed.body)).toContain('"language":"de"');

    const bad = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: { ...debtor, id: row!.id, email: row!.email, language: "Klingon" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.language).toEqual([LANGUAGE_ERROR]);
    expect(await languageOf(row!.id)).toBe("de");

    // Absent: kept. Null: the user's again.
    const kept = await apiJson("PUT", "/debtors/edit", { cookie, json: { ...debtor, id: row!.id, email: row!.email } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(await languageOf(row!.id)).toBe("de");
    const cleared = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: { ...debtor, id: row!.id, email: row!.email, language: null },
    });
    expect(cleared.status).toBe(200);
    expect(await languageOf(row!.id)).toBeNull();
  });

  it("the form sets it, keeps what was typed on an error, and 'Same as mine' clears it", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("lang-form"));
    const email = uniqueEmail("form-lang");
    const form = { intent: "debtor-add", kind: "person", full_name: "Noor", email, debt: "10", active_strategy: "1" };
    const bad = await formAction("/debtors-list", { ...form, language: "xx" }, cookie);
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data).language).toEqual([LANGUAGE_ERROR]);
    expect((bad.data as { result: { initialValue: { language: string } } }).result.initialValue.language).toBe("xx");
    expect(await debtorRowsOf(userId)).toHaveLength(0);

    const ok = await formAction("/debtors-list", { ...form, language: "nl" }, cookie);
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    const [row] = await debtorRowsOf(userId);
    expect(await languageOf(row!.id)).toBe("nl");
    const edit = { ...form, intent: "debtor-edit", id: String(row!.id), language: "" };
    expect((await formAction("/debtors-list", edit, cookie)).status).toBe(200);
    expect(await languageOf(row!.id)).toBeNull();
  });

  it("the CSV import reads a language column by code or name, and refuses an unknown one as the row's error", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("lang-csv"));
    const csv = [
      "Name,Email,Amount,Sprache",
      `Anna,${uniqueEmail("anna")},10,Deutsch`,
      `Bram,${uniqueEmail("bram")},10,nl`,
      `Carl,${uniqueEmail("carl")},10,`,
      `Dora,${uniqueEmail("dora")},10,Klingon`,
    ].join("\n");
    const post = async (intent: string) => {
      const form = new FormData();
      form.set("intent", intent);
      form.set("csv", csv);
      const res = await postMultipart("/debtors/import.data", form, cookie);
      return { status: res.status, data: (await decodeTurbo(res))?.data as Json };
    };
    const preview = await post("import-preview");
    expect(preview.status, JSON.stringify(preview.data)).toBe(200);
    expect(preview.data.preview.rows.map((r: Json) => [r.status, r.messages])).toEqual([
      ["ok", []],
      ["ok", []],
      ["ok", []],
      ["error", [LANGUAGE_ERROR]],
    ]);
    expect((await post("import-confirm")).status).toBe(200);
    const rows = await debtorRowsOf(userId);
    expect(rows.map((r) => [r.full_name, r.language])).toEqual([
      ["Anna", "de"],
      ["Bram", "nl"],
      ["Carl", null],
    ]);
  });
});
