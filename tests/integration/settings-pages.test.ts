import { describe, expect, it } from "vitest";
import { addOrg, formAction, MSG, replyErrors } from "./data-helpers";
import { orgRow, orgRowsOf, userRow } from "./fixtures";
import { get, location, pageText, postForm, signIn, uniqueEmail } from "./helpers";

describe("profile-name on /iam/info", () => {
  it("changes the user's name and answers 'Profile updated'", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("name"));
    const { status, data } = await formAction(
      "/iam/info",
      { intent: "profile-name", full_name: "  Katherine Johnson " },
      cookie,
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({ intent: "profile-name", ok: true, message: "Profile updated" });
    expect((await userRow(userId))!.full_name).toBe("Katherine Johnson");
    expect(await pageText(await get("/iam/info", { cookie }))).toContain("Katherine Johnson");
  });

  for (const [name, fields] of [
    ["empty", { full_name: "" }],
    ["blank", { full_name: "    " }],
    ["missing", {}],
  ] as const) {
    it(`a ${name} name answers 400 with 'Please enter your full name' and changes nothing`, async () => {
      const { cookie, userId } = await signIn(uniqueEmail("name-bad"));
      const before = await userRow(userId);
      const { status, data } = await formAction("/iam/info", { intent: "profile-name", ...fields }, cookie);
      expect(status).toBe(400);
      expect(replyErrors(data)).toEqual({ full_name: [MSG.userName] });
      const doc = await postForm("/iam/info", { intent: "profile-name", ...fields }, { cookie });
      expect(doc.status).toBe(400);
      expect(await pageText(doc)).toContain(MSG.userName);
      expect(await userRow(userId)).toEqual(before);
    });
  }
});

describe("organization form actions on /iam/orgs", () => {
  it("org-add stores the organization and answers 'Organization added'", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("org-add"));
    const { status, data } = await formAction(
      "/iam/orgs",
      { intent: "org-add", name: "Page Org", address: "7 Page Rd" },
      cookie,
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({ intent: "org-add", ok: true, message: "Organization added" });
    expect(await orgRowsOf(userId)).toEqual([
      expect.objectContaining({ owner_id: userId, name: "Page Org", address: "7 Page Rd" }),
    ]);
    expect(await pageText(await get("/iam/orgs", { cookie }))).toContain("Page Org");
  });

  const cases: [string, Record<string, string>, Record<string, string[]>][] = [
    ["empty name", { name: "", address: "x" }, { name: [MSG.orgName] }],
    ["blank name", { name: "  ", address: "x" }, { name: [MSG.orgName] }],
    ["missing name", { address: "x" }, { name: [MSG.orgName] }],
    ["empty address", { name: "x", address: "" }, { address: [MSG.orgAddress] }],
    ["missing address", { name: "x" }, { address: [MSG.orgAddress] }],
    ["both empty", { name: "", address: "" }, { name: [MSG.orgName], address: [MSG.orgAddress] }],
  ];
  for (const [name, fields, errors] of cases) {
    it(`org-add with ${name} answers 400 with the spec's message and stores nothing`, async () => {
      const { cookie, userId } = await signIn(uniqueEmail("org-bad"));
      const { status, data } = await formAction("/iam/orgs", { intent: "org-add", ...fields }, cookie);
      expect(status).toBe(400);
      expect(data).toMatchObject({ intent: "org-add", ok: false });
      expect(replyErrors(data)).toEqual(errors);
      const doc = await postForm("/iam/orgs", { intent: "org-add", ...fields }, { cookie });
      expect(doc.status).toBe(400);
      const text = await pageText(doc);
      for (const message of Object.values(errors).flat()) expect(text).toContain(message);
      expect(await orgRowsOf(userId)).toEqual([]);
    });
  }

  it("org-edit updates the user's organization; invalid input changes nothing", async () => {
    const { cookie } = await signIn(uniqueEmail("org-edit"));
    const org = await addOrg(cookie);
    const bad = await formAction(
      "/iam/orgs",
      { intent: "org-edit", id: String(org.id), name: "", address: "" },
      cookie,
    );
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data)).toEqual({ name: [MSG.orgName], address: [MSG.orgAddress] });
    expect(await orgRow(org.id)).toMatchObject({ name: "Acme Ltd", address: "1 Main St" });

    const ok = await formAction(
      "/iam/orgs",
      { intent: "org-edit", id: String(org.id), name: "Acme 2", address: "2 Main St" },
      cookie,
    );
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ intent: "org-edit", ok: true, message: "Organization updated" });
    expect(await orgRow(org.id)).toMatchObject({ name: "Acme 2", address: "2 Main St" });

    const missing = await formAction(
      "/iam/orgs",
      { intent: "org-edit", id: "987654321", name: "x", address: "y" },
      cookie,
    );
    expect(missing.status).toBe(404);
  });

  it("org-delete removes the user's organization and answers 'Organization deleted', then 404", async () => {
    const { cookie } = await signIn(uniqueEmail("org-del"));
    const org = await addOrg(cookie);
    const first = await formAction("/iam/orgs", { intent: "org-delete", id: String(org.id) }, cookie);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ intent: "org-delete", ok: true, message: "Organization deleted" });
    expect(await orgRow(org.id)).toBeNull();
    const again = await formAction("/iam/orgs", { intent: "org-delete", id: String(org.id) }, cookie);
    expect(again.status).toBe(404);
    const junk = await formAction("/iam/orgs", { intent: "org-delete", id: "abc" }, cookie);
    expect(junk.status).toBe(404);
  });

  it("a visitor's post is sent to /404 and stores nothing", async () => {
    const res = await postForm("/iam/orgs", { intent: "org-add", name: "Anon Org", address: "x" });
    expect(res.status).toBe(302);
    expect(location(res)!.pathname).toBe("/404");
  });
});
