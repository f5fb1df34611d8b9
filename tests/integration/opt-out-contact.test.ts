import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { optOutLink } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { db, eventsOf, makeDebtor, makeSchedule, scheduleRow } from "./fixtures";
import { get, postForm, signIn, uniqueEmail, visibleText } from "./helpers";

/**
 * The opt-out page's other choice, so that stopping every reminder is not a debtor's only way to
 * push back: "contact me another way" stores the message as the debtor's reply, holds the reminders
 * until the user handles it and copies it to the user; the address is not opted out.
 */
async function setUp() {
  const user = await signIn(uniqueEmail("contact-owner"));
  const debtor = await makeDebtor(user.userId);
  const schedule = await makeSchedule(user.userId, debtor.id);
  const path = new URL(
    await optOutLink(db(), readConfig(env), { id: debtor.id, ownerId: user.userId, optOutKey: null }),
  ).pathname;
  return { user, debtor, schedule, path };
}

const repliesOf = async (debtorId: number) =>
  (
    await env.DB.prepare("SELECT subject, text, from_address FROM debtor_replies WHERE debtor_id = ?")
      .bind(debtorId)
      .all<{ subject: string; text: string; from_address: string }>()
  ).results;

describe("the opt-out page: contact me another way", () => {
  it("offers the choice, stores the message as a reply, holds the reminders, copies it to the user; nothing is opted out", async () => {
    const s = await setUp();
    expect(await visibleText(await get(s.path))).toContain("Or: contact me another way");
    const res = await postForm(s.path, {
      intent: "contact",
      message: "  Please call me: +49 151 0000 000.\r\nThanks  ",
    });
    expect(res.status).toBe(200);
    expect(await visibleText(res)).toContain("has your message; reminders wait until they have answered it.");
    expect(await repliesOf(s.debtor.id)).toEqual([
      {
        subject: "Please contact me another way",
        text: "Please call me: +49 151 0000 000.\nThanks",
        from_address: s.debtor.email.toLowerCase(),
      },
    ]);
    expect(await scheduleRow(s.schedule)).toMatchObject({ state: "DISABLED", stopped_reason: "replied" });
    expect((await eventsOf(s.debtor.id)).map((e) => e.type)).toContain("replied");
    const copies = await env.DB.prepare("SELECT recipient FROM emails WHERE debtor_id = ? AND kind = 'reply-copy'")
      .bind(s.debtor.id)
      .all<{ recipient: string }>();
    expect(copies.results).toEqual([{ recipient: s.user.email.toLowerCase() }]);
    const optOuts = await env.DB.prepare("SELECT count(*) AS n FROM opt_outs WHERE owner_id = ?")
      .bind(s.user.userId)
      .first<{ n: number }>();
    expect(optOuts?.n).toBe(0);
  });

  it("refuses an empty or too long message, keeping what was typed; nothing stored, nothing held", async () => {
    const s = await setUp();
    for (const [message, error] of [
      ["   ", "Please write how the sender can reach you."],
      ["x".repeat(2001), "Please keep the message to 2,000 characters."],
    ] as const) {
      const res = await postForm(s.path, { intent: "contact", message });
      expect(res.status).toBe(400);
      expect(await visibleText(res)).toContain(error);
    }
    expect(await repliesOf(s.debtor.id)).toEqual([]);
    expect(await scheduleRow(s.schedule)).toMatchObject({ state: "ENABLED" });
  });

  it("the one-click POST of a mail client still stops the reminders", async () => {
    const s = await setUp();
    const res = await postForm(s.path, { "List-Unsubscribe": "One-Click" }, { originHeader: null });
    expect(res.status).toBe(200);
    expect(await scheduleRow(s.schedule)).toMatchObject({ state: "COMPLETED", stopped_reason: "opted_out" });
  });
});
