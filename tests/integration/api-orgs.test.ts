import { describe, expect, it } from "vitest";
import { addOrg, api, apiJson, MSG } from "./data-helpers";
import { orgRow, orgRowsOf } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";

const valid = { name: "Acme Ltd", address: "1 Main St\nSpringfield" };

describe("GET /api/org", () => {
  it("answers 401 without a session", async () => {
    const { status, body } = await apiJson("GET", "/org");
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: "Not signed in" });
  });

  it("lists the caller's organizations with fb_uuid", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("orgs"));
    const a = await addOrg(cookie, { name: "First Org", address: "A street" });
    const b = await addOrg(cookie, { name: "Second Org", address: "B street" });
    const { status, body } = await apiJson("GET", `/org?fb_uuid=${userId}`, { cookie });
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: a.id, name: "First Org", address: "A street", payment_url: null, fb_uuid: userId },
      { id: b.id, name: "Second Org", address: "B street", payment_url: null, fb_uuid: userId },
    ]);
  });

  it("answers 403 for another user's fb_uuid and never lists their organizations", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    await addOrg(a.cookie, { name: "A Secret Org" });
    const res = await api("GET", `/org?fb_uuid=${a.userId}`, { cookie: b.cookie });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: "fb_uuid is not the signed-in user" });
    expect(text).not.toContain("A Secret Org");
    expect((await apiJson("GET", "/org", { cookie: b.cookie })).body).toEqual([]);
  });
});

describe("POST /api/org/add", () => {
  it("answers 401 without a session", async () => {
    const { status, body } = await apiJson("POST", "/org/add", { json: valid });
    expect(status).toBe(401);
    expect(body.success).toBe(false);
  });

  it("adds an organization owned by the caller (trimmed)", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("add"));
    const { status, body } = await apiJson("POST", "/org/add", {
      cookie,
      json: { name: "  Acme  ", address: " 1 Main St ", fb_uuid: userId },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      error: null,
      data: { id: expect.any(Number), name: "Acme", address: "1 Main St", payment_url: null, fb_uuid: userId },
    });
    expect(await orgRow(body.data.id)).toMatchObject({ owner_id: userId, name: "Acme", address: "1 Main St" });
  });

  it("answers 403 when fb_uuid is not the caller's and stores nothing", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const { status, body } = await apiJson("POST", "/org/add", {
      cookie: b.cookie,
      json: { ...valid, fb_uuid: a.userId },
    });
    expect(status).toBe(403);
    expect(body.success).toBe(false);
    expect(await orgRowsOf(a.userId)).toEqual([]);
    expect(await orgRowsOf(b.userId)).toEqual([]);
  });

  describe("validation (docs/product-spec.md §5): 400 with the field's message, nothing stored", () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["empty name", { name: "" }, "name", MSG.orgName],
      ["blank name", { name: "  \t " }, "name", MSG.orgName],
      ["missing name", { name: undefined }, "name", MSG.orgName],
      ["numeric name", { name: 5 }, "name", MSG.orgName],
      ["empty address", { address: "" }, "address", MSG.orgAddress],
      ["blank address", { address: "\n" }, "address", MSG.orgAddress],
      ["missing address", { address: undefined }, "address", MSG.orgAddress],
      ["null address", { address: null }, "address", MSG.orgAddress],
    ];
    for (const [name, change, field, message] of cases) {
      it(`${name} -> errors.${field}`, async () => {
        const { cookie, userId } = await signIn(uniqueEmail("invalid"));
        const { status, body } = await apiJson("POST", "/org/add", { cookie, json: { ...valid, ...change } });
        expect(status).toBe(400);
        expect(body).toMatchObject({ success: false, error: "Invalid organization" });
        expect(body.errors[field]).toEqual([message]);
        expect(await orgRowsOf(userId)).toEqual([]);
      });
    }

    it("reports both fields at once", async () => {
      const { cookie } = await signIn(uniqueEmail("both"));
      const { status, body } = await apiJson("POST", "/org/add", { cookie, json: {} });
      expect(status).toBe(400);
      expect(body.errors).toEqual({ name: [MSG.orgName], address: [MSG.orgAddress] });
    });
  });

  it("answers 400 for a body that is not a JSON object", async () => {
    const { cookie } = await signIn(uniqueEmail("junk"));
    for (const raw of ["", "nope", "[]", "null", "1"]) {
      const res = await api("POST", "/org/add", { cookie, raw, headers: { "Content-Type": "application/json" } });
      expect(res.status, raw).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Expected a JSON object" });
    }
  });
});

describe("PUT /api/org/edit", () => {
  it("answers 401 without a session", async () => {
    expect((await apiJson("PUT", "/org/edit", { json: { ...valid, id: 1 } })).status).toBe(401);
  });

  it("updates the caller's organization", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("edit"));
    const org = await addOrg(cookie);
    const { status, body } = await apiJson("PUT", "/org/edit", {
      cookie,
      json: { id: org.id, name: "Renamed", address: "New address", fb_uuid: userId },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      error: null,
      data: { id: org.id, name: "Renamed", address: "New address", payment_url: null, fb_uuid: userId },
    });
    expect(await orgRow(org.id)).toMatchObject({ name: "Renamed", address: "New address", owner_id: userId });
  });

  it("answers 404 for another user's organization and leaves it unchanged", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const org = await addOrg(a.cookie);
    const before = await orgRow(org.id);
    const { status, body } = await apiJson("PUT", "/org/edit", {
      cookie: b.cookie,
      json: { ...valid, id: org.id, name: "Hijacked" },
    });
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: "Organization not found" });
    expect(await orgRow(org.id)).toEqual(before);
  });

  it("answers 403 when fb_uuid is not the caller's", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const org = await addOrg(a.cookie);
    const before = await orgRow(org.id);
    const { status } = await apiJson("PUT", "/org/edit", {
      cookie: b.cookie,
      json: { ...valid, id: org.id, fb_uuid: a.userId },
    });
    expect(status).toBe(403);
    expect(await orgRow(org.id)).toEqual(before);
  });

  it("answers 404 for a missing organization and 400 for a missing id", async () => {
    const { cookie } = await signIn(uniqueEmail("missing"));
    const missing = await apiJson("PUT", "/org/edit", { cookie, json: { ...valid, id: 987654321 } });
    expect(missing.status).toBe(404);
    const noId = await apiJson("PUT", "/org/edit", { cookie, json: valid });
    expect(noId.status).toBe(400);
    expect(noId.body).toEqual({
      success: false,
      error: "Invalid organization",
      errors: { id: ["Missing organization id"] },
    });
  });

  it("answers 400 with the spec's messages and leaves the organization unchanged", async () => {
    const { cookie } = await signIn(uniqueEmail("edit-invalid"));
    const org = await addOrg(cookie);
    const before = await orgRow(org.id);
    const noName = await apiJson("PUT", "/org/edit", { cookie, json: { id: org.id, name: "", address: "x" } });
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual({ name: [MSG.orgName] });
    const noAddress = await apiJson("PUT", "/org/edit", { cookie, json: { id: org.id, name: "x", address: " " } });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.errors).toEqual({ address: [MSG.orgAddress] });
    expect(await orgRow(org.id)).toEqual(before);
  });
});

describe("DELETE /api/org/del", () => {
  it("answers 401 without a session", async () => {
    expect((await apiJson("DELETE", "/org/del", { json: { id: 1 } })).status).toBe(401);
  });

  it("deletes the caller's organization, then answers 404 for it", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("del"));
    const org = await addOrg(cookie);
    const first = await apiJson("DELETE", "/org/del", { cookie, json: { id: org.id, fb_uuid: userId } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, error: null });
    expect(await orgRow(org.id)).toBeNull();
    const again = await apiJson("DELETE", "/org/del", { cookie, json: { id: org.id } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, error: "Organization not found" });
  });

  it("answers 404 for another user's organization and keeps it", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const org = await addOrg(a.cookie);
    const { status } = await apiJson("DELETE", "/org/del", { cookie: b.cookie, json: { id: org.id } });
    expect(status).toBe(404);
    expect(await orgRow(org.id)).not.toBeNull();
  });

  it("answers 403 when fb_uuid is not the caller's", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const org = await addOrg(a.cookie);
    const { status } = await apiJson("DELETE", "/org/del", {
      cookie: b.cookie,
      json: { id: org.id, fb_uuid: a.userId },
    });
    expect(status).toBe(403);
    expect(await orgRow(org.id)).not.toBeNull();
  });

  it("answers 400 for a missing or malformed id", async () => {
    const { cookie } = await signIn(uniqueEmail("del-bad"));
    for (const id of [undefined, "abc", 0, -3, 2.5]) {
      const { status, body } = await apiJson("DELETE", "/org/del", { cookie, json: { id } });
      expect(status, String(id)).toBe(400);
      expect(body.errors).toEqual({ id: ["Missing organization id"] });
    }
  });
});

describe("the organization endpoints never answer 500", () => {
  it("for odd payloads", async () => {
    const { cookie } = await signIn(uniqueEmail("fuzz"));
    const payloads: unknown[] = [
      { name: { x: 1 }, address: [1] },
      { name: "n".repeat(201), address: "a" },
      { name: "n", address: "a".repeat(501) },
      { ...valid, id: "9".repeat(30) },
      { ...valid, id: 1e300 },
      { ...valid, fb_uuid: false },
      { ...valid, fb_uuid: { $ne: null } },
    ];
    for (const json of payloads) {
      for (const [method, path] of [
        ["POST", "/org/add"],
        ["PUT", "/org/edit"],
        ["DELETE", "/org/del"],
      ] as const) {
        const res = await api(method, path, { cookie, json });
        expect(res.status, `${method} ${path} ${JSON.stringify(json).slice(0, 60)}`).toBeLessThan(500);
        expect(res.headers.get("Content-Type")).toContain("application/json");
      }
    }
  });

  it("unknown paths and methods under /api answer a JSON 404", async () => {
    const { cookie } = await signIn(uniqueEmail("unknown"));
    for (const [method, path] of [
      ["GET", "/nope"],
      ["POST", "/org"],
      ["PATCH", "/org/edit"],
      ["GET", "/org/add"],
    ] as const) {
      const { status, body } = await apiJson(method, path, { cookie, json: method === "GET" ? undefined : valid });
      expect(status, `${method} ${path}`).toBe(404);
      expect(body).toEqual({ success: false, error: "Not found" });
    }
  });
});
