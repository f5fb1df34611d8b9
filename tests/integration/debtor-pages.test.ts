import { describe, expect, it } from "vitest";
import { addDebtor, apiJson, formAction, MSG, replyErrors } from "./data-helpers";
import { debtorRow, debtorRowsOf, insertDelivery } from "./fixtures";
import { get, location, pageText, postForm, signIn, uniqueEmail } from "./helpers";

const valid = {
  intent: "debtor-add",
  full_name: "Page Debtor",
  email: "page@example.com",
  debt: "125.5",
  kind: "person",
};

for (const page of ["/dashboard", "/debtors-list"]) {
  describe(`debtor form actions on ${page}`, () => {
    it("debtor-add stores the debtor with the debt in cents and answers 'Debtor added'", async () => {
      const { cookie, userId } = await signIn(uniqueEmail("add"));
      const { status, data } = await formAction(page, valid, cookie);
      expect(status).toBe(200);
      expect(data).toMatchObject({ intent: "debtor-add", ok: true, message: "Debtor added" });
      const rows = await debtorRowsOf(userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        owner_id: userId,
        full_name: "Page Debtor",
        email: "page@example.com",
        debt_cents: 12550,
        active_strategy: 1,
      });
      // And it reads back as a decimal.
      expect((await apiJson("GET", "/debtors", { cookie })).body[0].debt).toBe(125.5);
    });

    it("debtor-add also works as a plain document post", async () => {
      const { cookie, userId } = await signIn(uniqueEmail("doc"));
      const res = await postForm(page, { ...valid, debt: "10" }, { cookie });
      const rows = await debtorRowsOf(userId);
      expect(rows.map((r) => r.debt_cents)).toEqual([1000]);
      expect(res.status).toBe(200);
      expect(await pageText(res)).toContain("Page Debtor");
    });

    describe("validation (docs/product-spec.md §5): 400 with the message on the field, nothing stored", () => {
      const cases: [string, Record<string, string | undefined>, string, string][] = [
        ["empty full_name", { full_name: "" }, "full_name", MSG.debtorName],
        ["blank full_name", { full_name: "   " }, "full_name", MSG.debtorName],
        ["missing full_name", { full_name: undefined }, "full_name", MSG.debtorName],
        ["invalid email", { email: "nope@" }, "email", MSG.debtorEmail],
        ["empty email", { email: "" }, "email", MSG.debtorEmail],
        ["debt 0", { debt: "0" }, "debt", MSG.debt],
        ["debt 'abc'", { debt: "abc" }, "debt", MSG.debt],
        ["empty debt", { debt: "" }, "debt", MSG.debt],
        ["missing debt", { debt: undefined }, "debt", MSG.debt],
        ["negative debt", { debt: "-3" }, "debt", MSG.debt],
      ];
      for (const [name, change, field, message] of cases) {
        it(name, async () => {
          const { cookie, userId } = await signIn(uniqueEmail("invalid"));
          const fields = Object.fromEntries(
            Object.entries({ ...valid, ...change }).filter(([, v]) => v !== undefined),
          ) as Record<string, string>;
          const { status, data } = await formAction(page, fields, cookie);
          expect(status).toBe(400);
          expect(data).toMatchObject({ intent: "debtor-add", ok: false });
          expect(replyErrors(data)[field]).toEqual([message]);
          expect(await debtorRowsOf(userId)).toEqual([]);

          // The no-JavaScript document answer carries the same message.
          const doc = await postForm(page, fields, { cookie });
          expect(doc.status).toBe(400);
          expect(await pageText(doc)).toContain(message);
          expect(await debtorRowsOf(userId)).toEqual([]);
        });
      }

      it("keeps what the user typed for the form to show again", async () => {
        const { cookie } = await signIn(uniqueEmail("keep"));
        const { data } = await formAction(
          page,
          { ...valid, full_name: "Typed Name", email: "bad", debt: "abc" },
          cookie,
        );
        expect(data.result.initialValue).toMatchObject({ full_name: "Typed Name", email: "bad", debt: "abc" });
        expect(replyErrors(data)).toEqual({ email: [MSG.debtorEmail], debt: [MSG.debt] });
      });
    });

    it("debtor-edit updates the user's debtor and answers 'Debtor updated'", async () => {
      const { cookie, userId } = await signIn(uniqueEmail("edit"));
      const d = await addDebtor(cookie);
      const { status, data } = await formAction(
        page,
        {
          intent: "debtor-edit",
          id: String(d.id),
          full_name: "Edited",
          email: "edited@example.com",
          debt: "5.00",
          kind: "company",
          active_strategy: "3",
        },
        cookie,
      );
      expect(status).toBe(200);
      expect(data).toMatchObject({ intent: "debtor-edit", ok: true, message: "Debtor updated" });
      expect(await debtorRow(d.id)).toMatchObject({
        owner_id: userId,
        full_name: "Edited",
        email: "edited@example.com",
        debt_cents: 500,
        kind: "company",
        active_strategy: 3,
      });
    });

    it("debtor-edit with invalid fields answers 400 with the messages and changes nothing", async () => {
      const { cookie } = await signIn(uniqueEmail("edit-bad"));
      const d = await addDebtor(cookie);
      const before = await debtorRow(d.id);
      const { status, data } = await formAction(
        page,
        { intent: "debtor-edit", id: String(d.id), full_name: "", email: "x", debt: "0" },
        cookie,
      );
      expect(status).toBe(400);
      expect(replyErrors(data)).toEqual({ full_name: [MSG.debtorName], email: [MSG.debtorEmail], debt: [MSG.debt] });
      expect(await debtorRow(d.id)).toEqual(before);
    });

    it("debtor-edit of a missing id answers 404", async () => {
      const { cookie } = await signIn(uniqueEmail("edit-missing"));
      for (const id of ["987654321", "abc", ""]) {
        const { status, data } = await formAction(page, { ...valid, intent: "debtor-edit", id }, cookie);
        expect(status, id).toBe(404);
        expect(data).toMatchObject({ ok: false, message: "Something went wrong" });
      }
    });

    it("debtor-delete removes the user's debtor and answers 'Debtor deleted', then 404", async () => {
      const { cookie } = await signIn(uniqueEmail("delete"));
      const d = await addDebtor(cookie);
      const first = await formAction(page, { intent: "debtor-delete", id: String(d.id) }, cookie);
      expect(first.status).toBe(200);
      expect(first.data).toMatchObject({ intent: "debtor-delete", ok: true, message: "Debtor deleted" });
      expect(await debtorRow(d.id)).toBeNull();
      const again = await formAction(page, { intent: "debtor-delete", id: String(d.id) }, cookie);
      expect(again.status).toBe(404);
      expect(again.data).toMatchObject({ ok: false, message: "Something went wrong" });
    });

    it("an unknown intent answers 400 and a visitor is sent to /404", async () => {
      const { cookie, userId } = await signIn(uniqueEmail("intent"));
      expect((await postForm(page, { intent: "debtor-explode" }, { cookie })).status).not.toBe(500);
      expect((await postForm(page, { intent: "other" }, { cookie })).status).toBe(400);
      const visitor = await postForm(page, valid);
      expect(visitor.status).toBe(302);
      expect(location(visitor)!.pathname).toBe("/404");
      expect(await debtorRowsOf(userId)).toEqual([]);
    });
  });
}

describe("debtor pages show the real data", () => {
  it("the dashboard shows the selected debtor's real 'Reminders sent' count from deliveries", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("dash"));
    const a = await addDebtor(cookie, { full_name: "Counted Debtor" });
    const b = await addDebtor(cookie, { full_name: "Quiet Debtor" });
    for (let i = 0; i < 4; i++) await insertDelivery(userId, a.id, "sent");
    await insertDelivery(userId, a.id, "failed");
    await insertDelivery(userId, b.id, "bounced");

    // It opens on the whole account: every debtor's reminders (the bounced one is not sent).
    const whole = await pageText(await get("/dashboard", { cookie }));
    expect(whole).toContain("Reminders sent, whole account");
    expect(whole).toMatch(/data-testid="reminders-sent"[^>]*>4</);

    const counted = await pageText(await get(`/dashboard?debtor=${a.id}`, { cookie }));
    expect(counted).toMatch(/data-testid="reminders-sent"[^>]*>4</);
    const quiet = await pageText(await get(`/dashboard?debtor=${b.id}`, { cookie }));
    expect(quiet).toMatch(/data-testid="reminders-sent"[^>]*>0</);
  });

  it("/debtors-list lists the user's debtors with decimal amounts", async () => {
    const { cookie } = await signIn(uniqueEmail("list"));
    await addDebtor(cookie, { full_name: "Listed Person", debt: 1234.5 });
    const text = await pageText(await get("/debtors-list", { cookie }));
    expect(text).toContain("Listed Person");
    expect(text).toContain("1,234.50");
  });
});
