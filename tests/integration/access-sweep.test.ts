import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  addDebtor,
  addOrg,
  api,
  apiJson,
  decodeTurbo,
  eventually,
  formAction,
  IMAGES,
  imagesOf,
  type Json,
  photoForm,
  postMultipart,
  snapshot,
} from "./data-helpers";
import { userRow } from "./fixtures";
import { get, pageText, postForm, type SignedIn, signIn, uniqueEmail } from "./helpers";

/**
 * User B tries every read, edit and delete on user A's debtors, organizations, profile and image,
 * through the JSON API and the pages' form actions. Every attempt answers 404 or 403, nothing of
 * A's leaks into B's answers, and A's rows and objects are byte-for-byte what they were.
 */
describe("access sweep: another user's records", () => {
  let a: SignedIn;
  let b: SignedIn;
  let aDebtor: Json;
  let aOrg: Json;
  let aImage: string;
  /** A's earlier photo, replaced (and deleted) by the current one. */
  let aReplaced: string;
  let aSignedUrl: string;
  let bDebtor: Json;
  let before: Awaited<ReturnType<typeof snapshot>>;
  const SECRET_DEBTOR = "Zebediah Secretdebtor";
  const SECRET_ORG = "Quixotic Secret Holdings";
  const SECRET_NAME = "Aurelia Ownerperson";

  /** Every answer B gets: status, and the body to check that nothing of A's leaks. */
  const answers: { what: string; status: number; text: string }[] = [];
  async function attempt(what: string, res: Response | Promise<Response>) {
    const r = await res;
    const text = await r.text();
    answers.push({ what, status: r.status, text });
    return { status: r.status, text };
  }

  beforeAll(async () => {
    a = await signIn(uniqueEmail("victim"));
    b = await signIn(uniqueEmail("attacker"));
    aDebtor = await addDebtor(a.cookie, { full_name: SECRET_DEBTOR, email: "zeb@example.com", debt: 321.09 });
    await addDebtor(a.cookie, { full_name: "Second Of A", debt: 5 });
    aOrg = await addOrg(a.cookie, { name: SECRET_ORG, address: "42 Hidden Lane" });
    expect((await apiJson("PUT", "/profile/edit", { cookie: a.cookie, json: { full_name: SECRET_NAME } })).status).toBe(
      200,
    );
    // A's photo through the API, then the one that replaces it through the settings form: an
    // account keeps one photo, so the first object is deleted (after the answer).
    const uploaded = await apiJson("PUT", `/r2?key=${a.userId}/spare`, {
      cookie: a.cookie,
      raw: IMAGES.jpeg,
      headers: { "Content-Type": "image/jpeg" },
    });
    expect(uploaded.status).toBe(200);
    aReplaced = uploaded.body.key;
    expect((await postMultipart("/iam/info.data", photoForm(IMAGES.png), a.cookie)).status).toBe(200);
    aImage = (await userRow(a.userId))!.img_key!;
    expect(aImage).not.toBe(aReplaced);
    expect(await eventually(async () => (await imagesOf(a.userId)).length === 1)).toBe(true);
    aSignedUrl = (await apiJson("GET", `/r2/getPresignedUrl?key=${aImage}`, { cookie: a.cookie })).body.signedUrl;
    // B has records of its own, so "their own list" answers are not trivially empty.
    bDebtor = await addDebtor(b.cookie, { full_name: "B's own debtor" });
    await addOrg(b.cookie, { name: "B's own org" });
    before = await snapshot(a.userId);
    expect(before.debtors).toHaveLength(2);
    expect(before.organizations).toHaveLength(1);
    expect(before.images.map((o) => o.key)).toEqual([aImage]);
    expect(before.user!.img_key).toBe(aImage);
  });

  describe("JSON API", () => {
    const fb = () => a.userId;

    it("reads: 403 for A's fb_uuid, 404 for A's records, and B's own lists hold none of A's", async () => {
      for (const path of [`/debtors?fb_uuid=${fb()}`, `/org?fb_uuid=${fb()}`, `/profile?fb_uuid=${fb()}`]) {
        expect((await attempt(`GET ${path}`, api("GET", path, { cookie: b.cookie }))).status, path).toBe(403);
      }
      for (const path of [`/debtors/${aDebtor.id}`, `/r2/getPresignedUrl?key=${encodeURIComponent(aImage)}`]) {
        expect((await attempt(`GET ${path}`, api("GET", path, { cookie: b.cookie }))).status, path).toBe(404);
      }
      for (const path of ["/debtors", "/org", "/profile"]) {
        const { status, text } = await attempt(`GET ${path} (own)`, api("GET", path, { cookie: b.cookie }));
        expect(status).toBe(200);
        expect(text).not.toContain(String(a.userId));
      }
    });

    /** B's JSON requests, each with the status it must get: [what, method, path, body, status]. */
    async function expectAnswers(cases: [string, string, string, unknown, number][]) {
      for (const [what, method, path, json, expected] of cases) {
        const { status } = await attempt(what, api(method, path, { cookie: b.cookie, json }));
        expect(status, `${what}: ${method} ${path} ${JSON.stringify(json)}`).toBe(expected);
      }
    }

    it("debtor edits and deletes: 404 by id, 403 with A's fb_uuid", async () => {
      const edit = { id: aDebtor.id, full_name: "Hijacked", email: "h@example.com", debt: 1 };
      await expectAnswers([
        ["edit debtor", "PUT", "/debtors/edit", edit, 404],
        ["edit debtor fb", "PUT", "/debtors/edit", { ...edit, fb_uuid: fb() }, 403],
        ["del debtor", "DELETE", "/debtors/del", { id: aDebtor.id }, 404],
        ["del debtor str", "DELETE", "/debtors/del", { id: String(aDebtor.id) }, 404],
        ["del debtor fb", "DELETE", "/debtors/del", { id: aDebtor.id, fb_uuid: fb() }, 403],
        ["add debtor for A", "POST", "/debtors/add", { ...edit, fb_uuid: fb() }, 403],
      ]);
    });

    it("organization edits and deletes: 404 by id, 403 with A's fb_uuid", async () => {
      const edit = { id: aOrg.id, name: "Hijacked", address: "Nowhere" };
      await expectAnswers([
        ["edit org", "PUT", "/org/edit", edit, 404],
        ["edit org fb", "PUT", "/org/edit", { ...edit, fb_uuid: fb() }, 403],
        ["del org", "DELETE", "/org/del", { id: aOrg.id }, 404],
        ["del org fb", "DELETE", "/org/del", { id: aOrg.id, fb_uuid: fb() }, 403],
        ["add org for A", "POST", "/org/add", { ...edit, fb_uuid: fb() }, 403],
      ]);
    });

    it("profile and image writes: 403 with A's ids, 404 for A's image", async () => {
      const cases: [string, string, unknown, number][] = [
        ["POST", "/profile/add", { fb_uuid: fb(), full_name: "Hijacked" }, 403],
        ["PUT", "/profile/edit", { id: fb(), fb_uuid: fb(), full_name: "Hijacked" }, 403],
        ["PUT", "/profile/edit", { id: fb(), full_name: "Hijacked" }, 403],
        ["PUT", "/profile/changeImg", { id: fb(), fb_uuid: fb(), img: aImage }, 403],
        ["PUT", "/profile/changeImg", { img: aImage }, 404],
        ["PUT", "/profile/changeImg", { img: aReplaced }, 404],
      ];
      await expectAnswers(
        cases.map(([method, path, json, expected]) => [`${method} ${path}`, method, path, json, expected]),
      );
      // Overwriting A's stored photo or A's replaced one, or adding one under A's id.
      for (const key of [aImage, aReplaced, `${a.userId}/planted`]) {
        const put = api("PUT", `/r2?key=${encodeURIComponent(key)}`, {
          cookie: b.cookie,
          raw: IMAGES.jpeg,
          headers: { "Content-Type": "image/jpeg" },
        });
        expect((await attempt(`PUT /r2 ${key}`, put)).status).toBe(403);
      }
      expect((await userRow(b.userId))!.img_key).toBeNull();
    });
  });

  describe("page form actions", () => {
    for (const path of ["/dashboard", "/debtors-list"]) {
      it(`${path}: debtor-edit and debtor-delete of A's debtor answer 404`, async () => {
        // As the page posts it: the dashboard's URL names B's selected debtor.
        const page = path === "/dashboard" ? `/dashboard?debtor=${bDebtor.id}` : path;
        const edit = {
          intent: "debtor-edit",
          id: String(aDebtor.id),
          full_name: "Hijacked",
          email: "h@example.com",
          debt: "1",
        };
        const viaFetcher = await formAction(page, edit, b.cookie);
        expect(viaFetcher.status).toBe(404);
        expect(viaFetcher.data).toMatchObject({ ok: false, message: "Something went wrong" });
        expect((await attempt(`${page} edit doc`, postForm(page, edit, { cookie: b.cookie }))).status).toBe(404);

        const del = { intent: "debtor-delete", id: String(aDebtor.id) };
        const deleted = await formAction(page, del, b.cookie);
        expect(deleted.status).toBe(404);
        expect(deleted.data).toMatchObject({ ok: false, message: "Something went wrong" });
        expect((await attempt(`${page} delete doc`, postForm(page, del, { cookie: b.cookie }))).status).toBe(404);
      });
    }

    it("/iam/orgs: org-edit and org-delete of A's organization answer 404", async () => {
      const edit = { intent: "org-edit", id: String(aOrg.id), name: "Hijacked", address: "Nowhere" };
      const edited = await formAction("/iam/orgs", edit, b.cookie);
      expect(edited.status).toBe(404);
      expect(edited.data).toMatchObject({ intent: "org-edit", ok: false, message: "Something went wrong" });
      expect((await attempt("org-edit doc", postForm("/iam/orgs", edit, { cookie: b.cookie }))).status).toBe(404);

      const del = { intent: "org-delete", id: String(aOrg.id) };
      const deleted = await formAction("/iam/orgs", del, b.cookie);
      expect(deleted.status).toBe(404);
      expect(deleted.data).toMatchObject({ intent: "org-delete", ok: false });
      expect((await attempt("org-delete doc", postForm("/iam/orgs", del, { cookie: b.cookie }))).status).toBe(404);
    });

    it("profile-name and profile-photo only ever change the signed-in user", async () => {
      // Extra fields naming A are ignored: the owner is the session's user.
      const named = await formAction(
        "/iam/info",
        { intent: "profile-name", full_name: "B Renamed", id: a.userId, fb_uuid: a.userId },
        b.cookie,
      );
      expect(named.status).toBe(200);
      expect((await userRow(b.userId))!.full_name).toBe("B Renamed");

      const form = photoForm(IMAGES.webp, "w.webp", "image/webp");
      form.set("id", a.userId);
      form.set("fb_uuid", a.userId);
      form.set("key", aImage);
      const photo = await postMultipart("/iam/info.data", form, b.cookie);
      expect(photo.status).toBe(200);
      expect((await decodeTurbo(photo)).data.ok).toBe(true);
      expect((await userRow(b.userId))!.img_key).toMatch(new RegExp(`^${b.userId}/`));
      expect(await imagesOf(b.userId)).toHaveLength(1);
    });
  });

  describe("pages and image URLs", () => {
    it("B's pages show none of A's debtors, organizations, name or photo", async () => {
      for (const path of ["/dashboard", `/dashboard?debtor=${aDebtor.id}`, "/debtors-list", "/iam/info", "/iam/orgs"]) {
        const res = await get(path, { cookie: b.cookie });
        const text = await pageText(res);
        answers.push({ what: `GET ${path}`, status: res.status, text });
        expect([200, 302], path).toContain(res.status);
        for (const secret of [SECRET_DEBTOR, SECRET_ORG, SECRET_NAME, aImage, a.email])
          expect(text, `${path} leaks ${secret}`).not.toContain(secret);
      }
      // A's own page does show them (so the check above could fail).
      const own = await pageText(await get(`/dashboard?debtor=${aDebtor.id}`, { cookie: a.cookie }));
      expect(own).toContain(SECRET_DEBTOR);
      expect(own).toContain(SECRET_ORG);
    });

    it("A's signature does not open any other key, and B's own signed URL does not open A's image", async () => {
      const url = new URL(aSignedUrl, "http://localhost");
      const bKey = (await userRow(b.userId))!.img_key!;
      expect((await get(`/images/${bKey}${url.search}`)).status).toBe(404);
      const bUrl = new URL(
        (await apiJson("GET", `/r2/getPresignedUrl?key=${bKey}`, { cookie: b.cookie })).body.signedUrl,
        "http://localhost",
      );
      expect((await get(`/images/${aImage}${bUrl.search}`)).status).toBe(404);
      expect((await get(`/images/${aReplaced}${bUrl.search}`)).status).toBe(404);
      expect((await get(`/images/${a.userId}/spare${bUrl.search}`)).status).toBe(404);
    });
  });

  describe("afterwards", () => {
    it("every attempt was refused with 404 or 403, and none answered 500", () => {
      const writes = answers.filter(
        (x) =>
          !x.what.startsWith("GET /dashboard") &&
          !x.what.startsWith("GET /debtors-list") &&
          !x.what.startsWith("GET /iam") &&
          !x.what.includes("(own)"),
      );
      expect(writes.length).toBeGreaterThan(20);
      for (const x of writes) expect([403, 404], x.what).toContain(x.status);
      for (const x of answers) expect(x.status, x.what).toBeLessThan(500);
    });

    it("no answer to B carried A's debtor, organization, name or image key", () => {
      for (const x of answers) {
        for (const secret of [SECRET_DEBTOR, SECRET_ORG, SECRET_NAME, "42 Hidden Lane", aImage, aReplaced])
          expect(x.text, `${x.what} leaks ${secret}`).not.toContain(secret);
      }
    });

    it("A's users row, debtors, organizations, schedules and R2 objects are unchanged", async () => {
      expect(await snapshot(a.userId)).toEqual(before);
      const image = await env.IMAGES.get(aImage);
      expect(new Uint8Array(await image!.arrayBuffer())).toEqual(IMAGES.png);
      expect(await env.IMAGES.head(`${a.userId}/planted`)).toBeNull();
      expect(await env.IMAGES.head(aReplaced)).toBeNull();
      // And A still sees everything through the API.
      const debtors = await apiJson("GET", "/debtors", { cookie: a.cookie });
      expect(debtors.body.map((d: Json) => d.full_name)).toEqual([SECRET_DEBTOR, "Second Of A"]);
      expect(debtors.body[0].debt).toBe(321.09);
      expect((await apiJson("GET", "/org", { cookie: a.cookie })).body.map((o: Json) => o.name)).toEqual([SECRET_ORG]);
      expect((await apiJson("GET", "/profile", { cookie: a.cookie })).body[0]).toMatchObject({
        full_name: SECRET_NAME,
        img: aImage,
      });
      expect((await get(aSignedUrl)).status).toBe(200);
    });
  });
});
