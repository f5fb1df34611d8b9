import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { formAction, replyErrors } from "./data-helpers";
import { fireAndSend, resendDelivered } from "./engine-helpers";
import { makeDebtor, makeSchedule } from "./fixtures";
import { get, pageText, postForm, signIn, uniqueEmail } from "./helpers";

/**
 * Settings → E-mail texts (docs/decisions/056): the user's own subject and body per step, tone and
 * language, checked on save (field errors, what was typed kept), used by the reminders of debtors in
 * that language only, shown by the preview and the test send, and reset to Dunly's text.
 */

const TEXT = {
  intent: "template-text-save",
  template: "initial",
  tone: "1",
  language: "de",
  subject: "Offene Rechnungen für {debtorName}: {total}",
  body: "Guten Tag {contactName},\n\nbitte begleichen Sie **{total}**.\n\n{statement}\n\n{payButton}\n\nMit freundlichen Grüßen\n\n{signature}",
};

const saved = (ownerId: string) =>
  env.DB.prepare("SELECT template, tone, language, subject, body FROM message_templates WHERE owner_id = ?")
    .bind(ownerId)
    .all()
    .then((r) => r.results);

const setLanguage = (debtorId: number, language: string | null) =>
  env.DB.prepare("UPDATE debtors SET language = ? WHERE id = ?").bind(language, debtorId).run();

describe("the user's own e-mail texts", () => {
  it("refuses hostile text with field errors, keeping what was typed, and saves nothing", async () => {
    const a = await signIn(uniqueEmail("texts-bad"));
    const cases: [Record<string, string>, "subject" | "body", RegExp][] = [
      [{ subject: "Hello\r\nBcc: victim@example.com" }, "subject", /one line/],
      [{ subject: "{statement} for you" }, "subject", /cannot be in the subject/],
      [{ body: "Hi <script>alert(1)</script>\n\n{statement}" }, "body", /HTML is not sent/],
      [{ body: "Dear {firstName},\n\n{statement}" }, "body", /\{firstName\} is not a placeholder/],
      [{ body: "x".repeat(5_001) }, "body", /at most 5,000 characters/],
      [{ body: "See [this](javascript:alert(1))" }, "body", /must start with https:\/\//],
      [{ body: "" }, "body", /Write the e-mail's text/],
    ];
    for (const [over, field, message] of cases) {
      const res = await formAction("/iam/templates", { ...TEXT, ...over }, a.cookie);
      expect(res.status, JSON.stringify(over).slice(0, 80)).toBe(400);
      expect(replyErrors(res.data)[field]?.[0]).toMatch(message);
      const typed = (res.data as { result: { initialValue: Record<string, string> } }).result.initialValue;
      expect(typed[field] ?? "").toBe(over[field]);
    }
    expect(await saved(a.userId)).toEqual([]);
  });

  it("saves per step and language for the signed-in user only, and resets to Dunly's text", async () => {
    const a = await signIn(uniqueEmail("texts"));
    const ok = await formAction("/iam/templates", TEXT, a.cookie);
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    expect((ok.data as { message: string }).message).toBe(
      "Saved: reminders of Initial Email · Polite · Deutsch use your text.",
    );
    expect(await saved(a.userId)).toEqual([
      { template: "initial", tone: 1, language: "de", subject: TEXT.subject, body: TEXT.body },
    ]);
    const page = await pageText(await get("/iam/templates?template=initial&tone=1&language=de", { cookie: a.cookie }));
    expect(page).toContain("Your text, saved");
    expect(page).toContain("Guten Tag {contactName},");
    // Another language of the same step is still Dunly's.
    const english = await pageText(
      await get("/iam/templates?template=initial&tone=1&language=en", { cookie: a.cookie }),
    );
    expect(english).toContain("Dunly's text.");
    expect(english).toContain("Hi {contactName},");

    // Another user neither sees it nor can reset it.
    const b = await signIn(uniqueEmail("texts-other"));
    const theirs = await pageText(
      await get("/iam/templates?template=initial&tone=1&language=de", { cookie: b.cookie }),
    );
    // Theirs is Dunly's German text (decisions/055), not the other user's.
    expect(theirs).toContain("Dunly's text.");
    expect(theirs).not.toContain("bitte begleichen Sie");
    const foreign = await formAction(
      "/iam/templates",
      { intent: "template-text-reset", template: "initial", tone: "1", language: "de" },
      b.cookie,
    );
    expect(foreign.status).toBe(404);
    expect(await saved(a.userId)).toHaveLength(1);

    const reset = await formAction(
      "/iam/templates",
      { intent: "template-text-reset", template: "initial", tone: "1", language: "de" },
      a.cookie,
    );
    expect(reset.status).toBe(200);
    expect(await saved(a.userId)).toEqual([]);
  });

  it("is sent to debtors in its language only; the others get Dunly's text", async () => {
    const a = await signIn(uniqueEmail("texts-send"));
    expect((await formAction("/iam/templates", TEXT, a.cookie)).status).toBe(200);
    const german = await makeDebtor(a.userId, { fullName: "Carla GmbH", debtCents: 123_456, currency: "EUR" });
    await setLanguage(german.id, "de");
    const english = await makeDebtor(a.userId, { fullName: "Acme Ltd", debtCents: 50_000 });
    await setLanguage(english.id, null);

    for (const debtor of [german, english]) {
      const schedule = await makeSchedule(a.userId, debtor.id, { frequency: "now", preset: "FRIENDLY_REMINDER" });
      expect(await fireAndSend(schedule, Date.now() + 2 * 60_000)).toMatchObject({ kind: "done", status: "sent" });
    }
    const [toGerman] = await resendDelivered(german.email);
    // The amount as the debtor's language writes it (decisions/055).
    expect(toGerman?.body.subject).toMatch(/^Offene Rechnungen für Carla GmbH: 1\.234,56\s€$/);
    const html = String(toGerman?.body.html ?? "");
    expect(html).toContain("Guten Tag ");
    expect(html).toMatch(/<strong>1\.234,56(\s|&nbsp;)€<\/strong>/);
    // The statement, the opt-out link and the footer are never the user's to remove.
    expect(html).toContain("data-statement");
    expect(html).toContain("data-opt-out");
    const [toEnglish] = await resendDelivered(english.email);
    expect(toEnglish?.body.subject).not.toContain("Offene Rechnungen");
    expect(String(toEnglish?.body.html)).not.toContain("Guten Tag");
  });

  it("previews the text being edited, says why there is no preview for one with errors, and sends a test of it", async () => {
    const a = await signIn(uniqueEmail("texts-preview"));
    const debtor = await makeDebtor(a.userId, { fullName: "Preview Person" });
    const fields = {
      template: "follow-up",
      tone: "2",
      language: "en",
      frequency: "daily",
      debtor_id: String(debtor.id),
      subject: "About {total}",
      body: "Hello {debtorName}, **please** pay.\n\n{statement}",
    };
    const preview = await postForm("/schedule/preview", fields, { cookie: a.cookie });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("Content-Security-Policy")).toContain("sandbox");
    const html = (await preview.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Hello Preview Person, <strong>please</strong> pay.");
    const broken = await postForm("/schedule/preview", { ...fields, body: "{nope}" }, { cookie: a.cookie });
    expect(await broken.text()).toContain("The preview shows once the subject and text have no errors");

    const test = await formAction("/iam/templates", { ...fields, intent: "schedule-test-send" }, a.cookie);
    expect(test.status, JSON.stringify(test.data)).toBe(200);
    const mail = (await resendDelivered(a.email)).find((m) => String(m.body.subject).startsWith("[Test]"));
    expect(mail?.body.subject).toBe("[Test] About $1,234.50");
    expect(String(mail?.body.html)).toContain("<strong>please</strong>");
    const refused = await formAction(
      "/iam/templates",
      { ...fields, intent: "schedule-test-send", subject: "a\nb" },
      a.cookie,
    );
    expect(refused.status).toBe(400);
  });
});
