import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  api,
  apiJson,
  eventually,
  IMAGES,
  imagesOf,
  MSG,
  onlyImageOf,
  photoForm,
  postMultipart,
  uploadImage,
} from "./data-helpers";
import { userRow } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";

describe("GET /api/profile", () => {
  it("answers 401 without a session", async () => {
    const { status, body } = await apiJson("GET", "/profile");
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: "Not signed in" });
  });

  it("answers an array with the caller's profile (docs/product-spec.md §3 fields)", async () => {
    const email = uniqueEmail("Profile");
    const { cookie, userId } = await signIn(email);
    const { status, body } = await apiJson("GET", `/profile?fb_uuid=${userId}`, { cookie });
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        id: userId,
        fb_uuid: userId,
        full_name: email.toLowerCase().split("@")[0],
        email: email.toLowerCase(),
        img: null,
      },
    ]);
    // Without the query the session decides whose profile it is.
    expect((await apiJson("GET", "/profile", { cookie })).body).toEqual(body);
  });

  it("answers 403 for another user's fb_uuid, without their data", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const res = await api("GET", `/profile?fb_uuid=${a.userId}`, { cookie: b.cookie });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: "fb_uuid is not the signed-in user" });
    expect(text).not.toContain(a.email);
  });
});

describe("POST /api/profile/add", () => {
  it("answers 401 without a session", async () => {
    expect((await apiJson("POST", "/profile/add", { json: { full_name: "X" } })).status).toBe(401);
  });

  it("returns the existing profile, updating the name when one is given", async () => {
    const { cookie, userId, email } = await signIn(uniqueEmail("add"));
    const same = await apiJson("POST", "/profile/add", { cookie, json: { fb_uuid: userId, email, img: null } });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({
      success: true,
      data: { id: userId, fb_uuid: userId, full_name: email.split("@")[0], email, img: null },
    });

    const named = await apiJson("POST", "/profile/add", {
      cookie,
      json: { fb_uuid: userId, full_name: "  Ada Lovelace ", email, img: null },
    });
    expect(named.status).toBe(200);
    expect(named.body.data.full_name).toBe("Ada Lovelace");
    expect((await userRow(userId))!.full_name).toBe("Ada Lovelace");
  });

  it("cannot change the e-mail or point the photo at someone else's image", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const aKey = await uploadImage(a.cookie, a.userId);
    const { status, body } = await apiJson("POST", "/profile/add", {
      cookie: b.cookie,
      json: { fb_uuid: b.userId, full_name: "B", email: a.email, img: aKey },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ email: b.email, img: null });
    expect(await userRow(b.userId)).toMatchObject({ email: b.email, img_key: null, full_name: "B" });
  });

  it("answers 403 when fb_uuid is not the caller's and changes nothing", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const beforeA = await userRow(a.userId);
    const beforeB = await userRow(b.userId);
    const { status, body } = await apiJson("POST", "/profile/add", {
      cookie: b.cookie,
      json: { fb_uuid: a.userId, full_name: "Hijacked" },
    });
    expect(status).toBe(403);
    expect(body.success).toBe(false);
    expect(await userRow(a.userId)).toEqual(beforeA);
    expect(await userRow(b.userId)).toEqual(beforeB);
  });

  it("answers 400 with 'Please enter your full name' for an empty name", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("empty"));
    const before = await userRow(userId);
    for (const full_name of ["", "   ", null, 42]) {
      const { status, body } = await apiJson("POST", "/profile/add", { cookie, json: { fb_uuid: userId, full_name } });
      expect(status, JSON.stringify(full_name)).toBe(400);
      expect(body).toEqual({ success: false, error: "Invalid profile", errors: { full_name: [MSG.userName] } });
    }
    expect(await userRow(userId)).toEqual(before);
  });

  it("answers 400 for a body that is not a JSON object", async () => {
    const { cookie } = await signIn(uniqueEmail("junk"));
    const res = await api("POST", "/profile/add", {
      cookie,
      raw: "[]",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, error: "Expected a JSON object" });
  });
});

describe("PUT /api/profile/edit", () => {
  it("answers 401 without a session", async () => {
    expect((await apiJson("PUT", "/profile/edit", { json: { full_name: "X" } })).status).toBe(401);
  });

  it("changes the caller's name", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("edit"));
    const { status, body } = await apiJson("PUT", "/profile/edit", {
      cookie,
      json: { id: userId, fb_uuid: userId, full_name: "Grace Hopper" },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, error: null });
    expect((await userRow(userId))!.full_name).toBe("Grace Hopper");
    expect((await apiJson("GET", "/profile", { cookie })).body[0].full_name).toBe("Grace Hopper");
  });

  it("answers 403 when fb_uuid or id is another user's, changing nobody", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const beforeA = await userRow(a.userId);
    const beforeB = await userRow(b.userId);
    for (const json of [
      { fb_uuid: a.userId, full_name: "Hijacked" },
      { id: a.userId, full_name: "Hijacked" },
      { id: a.userId, fb_uuid: b.userId, full_name: "Hijacked" },
      { id: b.userId, fb_uuid: a.userId, full_name: "Hijacked" },
    ]) {
      const { status, body } = await apiJson("PUT", "/profile/edit", { cookie: b.cookie, json });
      expect(status, JSON.stringify(json)).toBe(403);
      expect(body.success).toBe(false);
    }
    expect(await userRow(a.userId)).toEqual(beforeA);
    expect(await userRow(b.userId)).toEqual(beforeB);
  });

  it("answers 400 with 'Please enter your full name' for a missing or empty name", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("bad"));
    const before = await userRow(userId);
    for (const json of [{}, { full_name: "" }, { full_name: " \n " }, { full_name: ["x"] }]) {
      const { status, body } = await apiJson("PUT", "/profile/edit", { cookie, json: { fb_uuid: userId, ...json } });
      expect(status, JSON.stringify(json)).toBe(400);
      expect(body).toEqual({ success: false, error: "Invalid profile", errors: { full_name: [MSG.userName] } });
    }
    const tooLong = await apiJson("PUT", "/profile/edit", { cookie, json: { full_name: "x".repeat(201) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.full_name).toEqual(["Please use at most 200 characters"]);
    expect(await userRow(userId)).toEqual(before);
  });
});

describe("PUT /api/profile/changeImg", () => {
  it("answers 401 without a session", async () => {
    expect((await apiJson("PUT", "/profile/changeImg", { json: { img: "x/y" } })).status).toBe(401);
  });

  it("confirms the caller's current photo, which the upload already made the profile photo", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("img"));
    const first = await uploadImage(cookie, userId, IMAGES.png);
    expect((await userRow(userId))!.img_key).toBe(first);

    const one = await apiJson("PUT", "/profile/changeImg", {
      cookie,
      json: { id: userId, fb_uuid: userId, img: first },
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ success: true, error: null });
    expect((await userRow(userId))!.img_key).toBe(first);
    expect((await apiJson("GET", "/profile", { cookie })).body[0].img).toBe(first);

    // The next upload replaces it at once, and the previous object is removed.
    const second = await uploadImage(cookie, userId, IMAGES.jpeg);
    expect((await userRow(userId))!.img_key).toBe(second);
    expect(await eventually(async () => (await env.IMAGES.head(first)) === null)).toBe(true);
    const two = await apiJson("PUT", "/profile/changeImg", { cookie, json: { fb_uuid: userId, img: second } });
    expect(two.status).toBe(200);
    expect(two.body).toEqual({ success: true, error: null });
    expect((await apiJson("GET", "/profile", { cookie })).body[0].img).toBe(second);

    // Confirming the same image again keeps it.
    expect((await apiJson("PUT", "/profile/changeImg", { cookie, json: { img: second } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await env.IMAGES.head(second)).not.toBeNull();
    expect((await imagesOf(userId)).map((o) => o.key)).toEqual([second]);
  });

  it("answers 404 for the caller's previous (replaced) photo and keeps the current one", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("img-old"));
    const viaApi = await uploadImage(cookie, userId, IMAGES.png, "old");
    expect((await postMultipart("/iam/info.data", photoForm(IMAGES.webp, "w.webp", "image/webp"), cookie)).status).toBe(
      200,
    );
    const viaForm = (await userRow(userId))!.img_key!;
    const current = await uploadImage(cookie, userId, IMAGES.jpeg, "current");
    expect(await onlyImageOf(userId)).toBe(current);

    for (const img of [viaApi, viaForm, `${userId}/old`, `${userId}/current`]) {
      const { status, body } = await apiJson("PUT", "/profile/changeImg", {
        cookie,
        json: { id: userId, fb_uuid: userId, img },
      });
      expect(status, img).toBe(404);
      expect(body).toEqual({ success: false, error: "Image not found" });
    }
    expect((await userRow(userId))!.img_key).toBe(current);
    expect((await apiJson("GET", "/profile", { cookie })).body[0].img).toBe(current);
    expect((await imagesOf(userId)).map((o) => o.key)).toEqual([current]);
    const object = await env.IMAGES.get(current);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(IMAGES.jpeg);
  });

  it("answers 404 for another user's image and for an image that was never uploaded", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const aKey = await uploadImage(a.cookie, a.userId);
    const cases = [aKey, `${b.userId}/neveruploaded`, "../etc/passwd", `${b.userId}/../${aKey}`];
    for (const img of cases) {
      const { status, body } = await apiJson("PUT", "/profile/changeImg", { cookie: b.cookie, json: { img } });
      expect(status, img).toBe(404);
      expect(body).toEqual({ success: false, error: "Image not found" });
    }
    expect((await userRow(b.userId))!.img_key).toBeNull();

    // With a photo of its own, B still cannot take A's, nor name the key its client asked for.
    const bKey = await uploadImage(b.cookie, b.userId, IMAGES.jpeg, "mine");
    for (const img of [...cases, `${b.userId}/mine`]) {
      const { status } = await apiJson("PUT", "/profile/changeImg", { cookie: b.cookie, json: { img } });
      expect(status, img).toBe(404);
    }
    expect((await userRow(b.userId))!.img_key).toBe(bKey);
    expect((await userRow(a.userId))!.img_key).toBe(aKey);
    expect(await env.IMAGES.head(aKey)).not.toBeNull();
    expect(await env.IMAGES.head(bKey)).not.toBeNull();
  });

  it("answers 403 when fb_uuid or id is another user's", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const bKey = await uploadImage(b.cookie, b.userId);
    for (const json of [
      { fb_uuid: a.userId, img: bKey },
      { id: a.userId, img: bKey },
    ]) {
      const { status } = await apiJson("PUT", "/profile/changeImg", { cookie: b.cookie, json });
      expect(status).toBe(403);
    }
    expect((await userRow(a.userId))!.img_key).toBeNull();
    expect((await userRow(b.userId))!.img_key).toBe(bKey);
    expect(await imagesOf(a.userId)).toEqual([]);
  });

  it("answers 400 for a missing image key or a non-JSON body", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("noimg"));
    for (const json of [{}, { img: "" }, { img: 5 }, { img: null }]) {
      const { status, body } = await apiJson("PUT", "/profile/changeImg", {
        cookie,
        json: { fb_uuid: userId, ...json },
      });
      expect(status, JSON.stringify(json)).toBe(400);
      expect(body).toEqual({ success: false, error: "Invalid image", errors: { img: ["Please choose an image"] } });
    }
    const raw = await apiJson("PUT", "/profile/changeImg", { cookie, raw: "img=x" });
    expect(raw.status).toBe(400);
  });
});
