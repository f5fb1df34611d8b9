import { describe, expect, it } from "vitest";
import { addDebtor, api, apiJson, MSG } from "./data-helpers";
import { debtorRow, debtorRowsOf, insertDelivery } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";

const valid = { full_name: "Dana Debtor", email: "dana@example.com", debt: 100, active_strategy: 1 };

describe("GET /api/debtors", () => {
  it("answers 401 without a session", async () => {
    const { status, body } = await apiJson("GET", "/debtors");
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: "Not signed in" });
  });

  it("answers 401 for an unknown session token", async () => {
    const { status, body } = await apiJson("GET", "/debtors", {
      cookie: "dunly_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    });
    expect(status).toBe(401);
    expect(body.success).toBe(false);
  });

  it("lists the caller's debtors in the spec's shape, with decimal debt and the real sent count", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("list"));
    const a = await addDebtor(cookie, {
      full_name: "Alpha",
      email: "alpha@example.com",
      debt: 125.5,
      active_strategy: 2,
    });
    const b = await addDebtor(cookie, { full_name: "Beta", email: "beta@example.com", debt: 3 });
    await insertDelivery(userId, a.id, "sent");
    await insertDelivery(userId, a.id, "sent");
    await insertDelivery(userId, a.id, "failed");
    await insertDelivery(userId, b.id, "sending");

    const { status, body } = await apiJson("GET", `/debtors?fb_uuid=${userId}`, { cookie });
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        id: a.id,
        fb_uuid: userId,
        kind: "person",
        full_name: "Alpha",
        email: "alpha@example.com",
        debt: 125.5,
        paid: 0,
        currency: "USD",
        active_strategy: 2,
        status: "active",
        time_zone: "UTC",
        // Written to in the user's language.
        language: null,
        // No contact person given (decisions/057).
        contact_name: null,
        contact_role: null,
        // No mobile, so no consent to text (decisions/069).
        phone: null,
        text_consent: false,
        text_consent_at: null,
        text_consent_by: null,
        // The debt is one invoice, without a number.
        invoice_number: null,
        open_invoices: 1,
        emails_sent: 2,
      },
      expect.objectContaining({ id: b.id, full_name: "Beta", debt: 3, emails_sent: 0, active_strategy: 1 }),
    ]);

    // fb_uuid may be left out: the owner is the session's user.
    const noQuery = await apiJson("GET", "/debtors", { cookie });
    expect(noQuery.body.map((d: { id: number }) => d.id)).toEqual([a.id, b.id]);
  });

  it("answers 403 when fb_uuid is not the caller's", async () => {
    const a = await signIn(uniqueEmail("owner"));
    const b = await signIn(uniqueEmail("other"));
    await addDebtor(a.cookie, { full_name: "Secret Debtor" });
    const res = await api("GET", `/debtors?fb_uuid=${a.userId}`, { cookie: b.cookie });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: "fb_uuid is not the signed-in user" });
    expect(text).not.toContain("Secret Debtor");
  });

  it("never lists another user's debtors", async () => {
    const a = await signIn(uniqueEmail("owner"));
    const b = await signIn(uniqueEmail("other"));
    await addDebtor(a.cookie, { full_name: "Only For A" });
    const { status, body } = await apiJson("GET", "/debtors", { cookie: b.cookie });
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it("pages with limit and offset", async () => {
    const { cookie } = await signIn(uniqueEmail("page"));
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await addDebtor(cookie, { full_name: `P${i}` })).id);
    const page = await apiJson("GET", "/debtors?limit=2&offset=1", { cookie });
    expect(page.body.map((d: { id: number }) => d.id)).toEqual(ids.slice(1, 3));
    const junk = await apiJson("GET", "/debtors?limit=abc&offset=-5", { cookie });
    expect(junk.status).toBe(200);
    expect(junk.body.map((d: { id: number }) => d.id)).toEqual(ids);
  });
});

describe("GET /api/debtors/:id", () => {
  it("returns the caller's debtor, 404 for another user's, a missing or a malformed id", async () => {
    const a = await signIn(uniqueEmail("owner"));
    const b = await signIn(uniqueEmail("other"));
    const mine = await addDebtor(a.cookie, { debt: 19.99 });
    const ok = await apiJson("GET", `/debtors/${mine.id}`, { cookie: a.cookie });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: mine.id, debt: 19.99, fb_uuid: a.userId });

    for (const path of [`/debtors/${mine.id}`, "/debtors/987654321", "/debtors/abc"]) {
      const res = await apiJson("GET", path, { cookie: b.cookie });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ success: false, error: "Debtor not found" });
    }
    expect((await apiJson("GET", `/debtors/${mine.id}`)).status).toBe(401);
  });
});

describe("POST /api/debtors/add", () => {
  it("answers 401 without a session and stores nothing", async () => {
    const { status, body } = await apiJson("POST", "/debtors/add", { json: valid });
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: "Not signed in" });
  });

  it("is refused (403) without a same-origin Origin header, even with a session", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("csrf"));
    const res = await api("POST", "/debtors/add", { cookie, json: valid, originHeader: null });
    expect(res.status).toBe(403);
    const cross = await api("POST", "/debtors/add", { cookie, json: valid, originHeader: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(await debtorRowsOf(userId)).toEqual([]);
  });

  it("adds a debtor owned by the caller, storing the debt in cents and answering it as a decimal", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("add"));
    const { status, body } = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "  Jo Smith  ", email: "Jo@Example.com", debt: 125.5, fb_uuid: userId, active_strategy: 3 },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, error: null });
    expect(body.data).toMatchObject({
      fb_uuid: userId,
      full_name: "Jo Smith",
      email: "jo@example.com",
      debt: 125.5,
      active_strategy: 3,
      emails_sent: 0,
    });
    const row = await debtorRow(body.data.id);
    expect(row).toMatchObject({
      owner_id: userId,
      full_name: "Jo Smith",
      email: "jo@example.com",
      debt_cents: 12550,
      active_strategy: 3,
    });
    const listed = await apiJson("GET", "/debtors", { cookie });
    expect(listed.body[0].debt).toBe(125.5);
  });

  it("accepts numeric strings from simple clients and defaults the strategy to 1", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("strings"));
    const { status, body } = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Str", email: "s@example.com", debt: " 42.10 " },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ debt: 42.1, active_strategy: 1 });
    expect((await debtorRowsOf(userId))[0]!.debt_cents).toBe(4210);
  });

  it("never takes the owner from the payload: an id or owner_id in the body is ignored", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("owner-field"));
    const other = await signIn(uniqueEmail("victim"));
    const { status, body } = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { ...valid, id: 1, owner_id: other.userId, ownerId: other.userId },
    });
    expect(status).toBe(200);
    expect((await debtorRow(body.data.id))!.owner_id).toBe(userId);
    expect(await debtorRowsOf(other.userId)).toEqual([]);
  });

  it("answers 403 when fb_uuid is not the caller's, and stores nothing", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const { status, body } = await apiJson("POST", "/debtors/add", {
      cookie: b.cookie,
      json: { ...valid, fb_uuid: a.userId },
    });
    expect(status).toBe(403);
    expect(body).toEqual({ success: false, error: "fb_uuid is not the signed-in user" });
    expect(await debtorRowsOf(a.userId)).toEqual([]);
    expect(await debtorRowsOf(b.userId)).toEqual([]);
  });

  describe("validation (docs/product-spec.md §5): 400 with the field's message, nothing stored", () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["empty full_name", { full_name: "" }, "full_name", MSG.debtorName],
      ["blank full_name", { full_name: "   " }, "full_name", MSG.debtorName],
      ["missing full_name", { full_name: undefined }, "full_name", MSG.debtorName],
      ["numeric full_name", { full_name: 12 }, "full_name", MSG.debtorName],
      ["invalid email", { email: "not-an-email" }, "email", MSG.debtorEmail],
      ["empty email", { email: "" }, "email", MSG.debtorEmail],
      ["missing email", { email: undefined }, "email", MSG.debtorEmail],
      ["debt 0", { debt: 0 }, "debt", MSG.debt],
      ["debt '0'", { debt: "0" }, "debt", MSG.debt],
      ["debt 'abc'", { debt: "abc" }, "debt", MSG.debt],
      ["debt ''", { debt: "" }, "debt", MSG.debt],
      ["debt negative", { debt: -5 }, "debt", MSG.debt],
      ["debt 0.5", { debt: 0.5 }, "debt", MSG.debt],
      ["missing debt", { debt: undefined }, "debt", MSG.debt],
      ["debt null", { debt: null }, "debt", MSG.debt],
      ["debt true", { debt: true }, "debt", MSG.debt],
      ["debt too large", { debt: 1_000_000_001 }, "debt", "Please enter a number up to 1,000,000,000"],
      ["strategy 4", { active_strategy: 4 }, "active_strategy", "Please choose a strategy"],
      ["strategy 1.5", { active_strategy: 1.5 }, "active_strategy", "Please choose a strategy"],
    ];
    for (const [name, change, field, message] of cases) {
      it(`${name} -> errors.${field}`, async () => {
        const { cookie, userId } = await signIn(uniqueEmail("invalid"));
        const { status, body } = await apiJson("POST", "/debtors/add", { cookie, json: { ...valid, ...change } });
        expect(status).toBe(400);
        expect(body.success).toBe(false);
        expect(body.error).toBe("Invalid debtor");
        expect(body.errors[field]).toEqual([message]);
        expect(await debtorRowsOf(userId)).toEqual([]);
      });
    }

    it("reports every invalid field at once", async () => {
      const { cookie } = await signIn(uniqueEmail("all"));
      const { status, body } = await apiJson("POST", "/debtors/add", {
        cookie,
        json: { full_name: "", email: "x", debt: "abc" },
      });
      expect(status).toBe(400);
      expect(body.errors).toEqual({ full_name: [MSG.debtorName], email: [MSG.debtorEmail], debt: [MSG.debt] });
    });
  });

  it("answers 400 (never 500) for bodies that are not a JSON object", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("junk"));
    for (const raw of ["", "not json", "[]", "null", '"text"', "42", "{", '[{"full_name":"x"}]']) {
      const res = await api("POST", "/debtors/add", { cookie, raw, headers: { "Content-Type": "application/json" } });
      expect(res.status, raw).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Expected a JSON object" });
    }
    const form = await api("POST", "/debtors/add", {
      cookie,
      raw: "full_name=x&email=y&debt=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
    expect(await debtorRowsOf(userId)).toEqual([]);
  });
});

describe("PUT /api/debtors/edit", () => {
  it("answers 401 without a session", async () => {
    const { status, body } = await apiJson("PUT", "/debtors/edit", { json: { ...valid, id: 1 } });
    expect(status).toBe(401);
    expect(body.success).toBe(false);
  });

  it("updates the caller's debtor", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("edit"));
    const d = await addDebtor(cookie);
    const { status, body } = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: {
        id: d.id,
        fb_uuid: userId,
        full_name: "New Name",
        email: "new@example.com",
        debt: 0.99 + 1,
        active_strategy: 2,
      },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      error: null,
      data: { id: d.id, full_name: "New Name", debt: 1.99, active_strategy: 2 },
    });
    expect(await debtorRow(d.id)).toMatchObject({
      full_name: "New Name",
      email: "new@example.com",
      debt_cents: 199,
      active_strategy: 2,
      owner_id: userId,
    });
  });

  it("accepts the id as a numeric string", async () => {
    const { cookie } = await signIn(uniqueEmail("edit-str"));
    const d = await addDebtor(cookie);
    const { status } = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: { ...valid, id: String(d.id), full_name: "Stringy" },
    });
    expect(status).toBe(200);
    expect((await debtorRow(d.id))!.full_name).toBe("Stringy");
  });

  it("answers 404 for another user's debtor and leaves it unchanged", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const d = await addDebtor(a.cookie, { full_name: "A's debtor" });
    const before = await debtorRow(d.id);
    const { status, body } = await apiJson("PUT", "/debtors/edit", {
      cookie: b.cookie,
      json: { ...valid, id: d.id, full_name: "Hijacked" },
    });
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: "Debtor not found" });
    expect(await debtorRow(d.id)).toEqual(before);
  });

  it("answers 404 for a debtor that does not exist", async () => {
    const { cookie } = await signIn(uniqueEmail("missing"));
    const { status, body } = await apiJson("PUT", "/debtors/edit", { cookie, json: { ...valid, id: 987654321 } });
    expect(status).toBe(404);
    expect(body.error).toBe("Debtor not found");
  });

  it("answers 403 when fb_uuid is not the caller's", async () => {
    const a = await signIn(uniqueEmail("a"));
    const d = await addDebtor(a.cookie);
    const b = await signIn(uniqueEmail("b"));
    const before = await debtorRow(d.id);
    const { status } = await apiJson("PUT", "/debtors/edit", {
      cookie: b.cookie,
      json: { ...valid, id: d.id, fb_uuid: a.userId },
    });
    expect(status).toBe(403);
    expect(await debtorRow(d.id)).toEqual(before);
  });

  it("answers 400 with field errors for a missing or malformed id", async () => {
    const { cookie } = await signIn(uniqueEmail("noid"));
    for (const id of [undefined, null, "", "abc", 0, -1, 1.5, "1e3", {}, []]) {
      const { status, body } = await apiJson("PUT", "/debtors/edit", { cookie, json: { ...valid, id } });
      expect(status, JSON.stringify(id)).toBe(400);
      expect(body).toEqual({ success: false, error: "Invalid debtor", errors: { id: ["Missing debtor id"] } });
    }
  });

  it("answers 400 with the spec's messages and leaves the debtor unchanged", async () => {
    const { cookie } = await signIn(uniqueEmail("edit-invalid"));
    const d = await addDebtor(cookie);
    const before = await debtorRow(d.id);
    for (const [change, field, message] of [
      [{ full_name: "" }, "full_name", MSG.debtorName],
      [{ email: "nope" }, "email", MSG.debtorEmail],
      [{ debt: 0 }, "debt", MSG.debt],
      [{ debt: "abc" }, "debt", MSG.debt],
    ] as const) {
      const { status, body } = await apiJson("PUT", "/debtors/edit", {
        cookie,
        json: { ...valid, id: d.id, ...change },
      });
      expect(status).toBe(400);
      expect(body.errors[field]).toEqual([message]);
    }
    expect(await debtorRow(d.id)).toEqual(before);
  });
});

describe("DELETE /api/debtors/del", () => {
  it("answers 401 without a session", async () => {
    const { status, body } = await apiJson("DELETE", "/debtors/del", { json: { id: 1 } });
    expect(status).toBe(401);
    expect(body.success).toBe(false);
  });

  it("deletes the caller's debtor, then answers 404 for it", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("del"));
    const d = await addDebtor(cookie);
    const first = await apiJson("DELETE", "/debtors/del", { cookie, json: { id: d.id, fb_uuid: userId } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, error: null });
    expect(await debtorRow(d.id)).toBeNull();
    const again = await apiJson("DELETE", "/debtors/del", { cookie, json: { id: d.id } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, error: "Debtor not found" });
  });

  it("answers 404 for another user's debtor and keeps it", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const d = await addDebtor(a.cookie);
    const { status, body } = await apiJson("DELETE", "/debtors/del", { cookie: b.cookie, json: { id: d.id } });
    expect(status).toBe(404);
    expect(body.error).toBe("Debtor not found");
    expect(await debtorRow(d.id)).not.toBeNull();
  });

  it("answers 403 when fb_uuid is not the caller's", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const d = await addDebtor(a.cookie);
    const { status } = await apiJson("DELETE", "/debtors/del", {
      cookie: b.cookie,
      json: { id: d.id, fb_uuid: a.userId },
    });
    expect(status).toBe(403);
    expect(await debtorRow(d.id)).not.toBeNull();
  });

  it("answers 400 for a missing id or a body that is not JSON", async () => {
    const { cookie } = await signIn(uniqueEmail("del-bad"));
    const missing = await apiJson("DELETE", "/debtors/del", { cookie, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ id: ["Missing debtor id"] });
    const text = await apiJson("DELETE", "/debtors/del", { cookie, raw: "id=1" });
    expect(text.status).toBe(400);
    expect(text.body.error).toBe("Expected a JSON object");
  });
});

describe("the debtor endpoints never answer 500", () => {
  it("for odd payloads and methods", async () => {
    const { cookie } = await signIn(uniqueEmail("fuzz"));
    const d = await addDebtor(cookie);
    const payloads: unknown[] = [
      { full_name: { a: 1 }, email: ["x"], debt: { n: 1 } },
      { ...valid, debt: "1e400" },
      { ...valid, debt: 1e308 },
      { ...valid, debt: "Infinity" },
      { ...valid, debt: "0x10" },
      { ...valid, full_name: "x".repeat(201) },
      { ...valid, email: `${"a".repeat(250)}@example.com` },
      { ...valid, kind: "robot" },
      { ...valid, active_strategy: "abc" },
      { ...valid, id: d.id, fb_uuid: 12345 },
      { ...valid, id: Number.MAX_SAFE_INTEGER },
      { ...valid, id: "99999999999999999999999" },
    ];
    for (const json of payloads) {
      for (const [method, path] of [
        ["POST", "/debtors/add"],
        ["PUT", "/debtors/edit"],
        ["DELETE", "/debtors/del"],
      ] as const) {
        const res = await api(method, path, { cookie, json });
        expect(res.status, `${method} ${path} ${JSON.stringify(json).slice(0, 80)}`).toBeLessThan(500);
        expect(res.headers.get("Content-Type")).toContain("application/json");
      }
    }
    const wrongMethod = await api("PATCH", "/debtors/edit", { cookie, json: valid });
    expect(wrongMethod.status).toBe(404);
    expect(await wrongMethod.json()).toEqual({ success: false, error: "Not found" });
    // The only payload naming the debtor's id had a foreign fb_uuid, so it is still there.
    expect(await debtorRow(d.id)).not.toBeNull();
  });
});
