import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signedImageUrl } from "~/account/images.server";
import { readConfig } from "~/platform/config.server";
import {
  api,
  apiJson,
  bigPng,
  decodeTurbo,
  eventually,
  FIVE_MB,
  IMAGES,
  imagesOf,
  MSG,
  photoForm,
  postMultipart,
  uploadImage,
} from "./data-helpers";
import { userRow } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

async function put(cookie: string | undefined, key: string, body: BodyInit, contentType = "image/png") {
  return apiJson("PUT", `/r2?key=${encodeURIComponent(key)}`, {
    cookie,
    raw: body,
    headers: { "Content-Type": contentType },
  });
}

/** A key the server makes for the user: their id, a slash, a random lower-case name. */
const serverKey = (userId: string) => new RegExp(`^${userId}/[a-z0-9]{16,}$`);

/** The keys of a user's R2 objects once the deletes that run after the answers are done (one left). */
async function settledImages(userId: string) {
  expect(await eventually(async () => (await imagesOf(userId)).length === 1)).toBe(true);
  return (await imagesOf(userId)).map((o) => o.key);
}

async function bytesOf(key: string) {
  const object = await env.IMAGES.get(key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

describe("PUT /api/r2", () => {
  it("answers 401 without a session and stores nothing", async () => {
    const { userId } = await signIn(uniqueEmail("anon"));
    const { status, body } = await put(undefined, `${userId}/anon`, IMAGES.png);
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: "Not signed in" });
    expect(await imagesOf(userId)).toEqual([]);
  });

  for (const [kind, type] of [
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
  ] as const) {
    it(`stores a real ${kind.toUpperCase()} under a server-made key with the sniffed type, as the profile photo`, async () => {
      const { cookie, userId } = await signIn(uniqueEmail(kind));
      const requested = `${userId}/avatar${kind}`;
      // The declared type is deliberately wrong: only the bytes count.
      const { status, body } = await put(cookie, requested, IMAGES[kind], "application/octet-stream");
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, error: null, key: expect.stringMatching(serverKey(userId)) });
      const key = body.key as string;
      expect(await bytesOf(key)).toEqual(IMAGES[kind]);
      expect((await env.IMAGES.head(key))!.httpMetadata?.contentType).toBe(type);
      expect((await userRow(userId))!.img_key).toBe(key);
      expect((await imagesOf(userId)).map((o) => o.key)).toEqual([key]);
    });
  }

  it("rejects an HTML file named photo.png sent as image/png, storing nothing", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("html"));
    const { status, body } = await put(cookie, `${userId}/photopng`, IMAGES.html, "image/png");
    expect(status).toBe(415);
    expect(body).toEqual({ success: false, error: MSG.unsupportedImage });
    expect(await imagesOf(userId)).toEqual([]);
  });

  it("rejects other non-images (empty body, GIF, SVG, truncated PNG signature)", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("other-types"));
    const gif = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [name, bytes] of [
      ["empty", new Uint8Array()],
      ["gif", gif],
      ["svg", svg],
      ["short", IMAGES.png.slice(0, 7)],
    ] as const) {
      const { status, body } = await put(cookie, `${userId}/${name}`, bytes);
      expect(status, name).toBe(415);
      expect(body.error).toBe(MSG.unsupportedImage);
    }
    expect(await imagesOf(userId)).toEqual([]);
  });

  it("rejects more than 5 MB (413) and stores nothing, but accepts exactly 5 MB", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("big"));
    const tooBig = await put(cookie, `${userId}/big`, bigPng(FIVE_MB + 1));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ success: false, error: MSG.imageTooLarge });

    // A streamed body carries no Content-Length: the size is checked after reading.
    const stream = new Blob([bigPng(FIVE_MB + 1024)]).stream();
    const streamed = await api("PUT", `/r2?key=${userId}/streamed`, {
      cookie,
      raw: stream,
      headers: { "Content-Type": "image/png" },
    });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ success: false, error: MSG.imageTooLarge });
    expect(await imagesOf(userId)).toEqual([]);

    expect((await userRow(userId))!.img_key).toBeNull();

    const exact = await put(cookie, `${userId}/exact`, bigPng(FIVE_MB));
    expect(exact.status).toBe(200);
    expect(exact.body.key).toMatch(serverKey(userId));
    expect((await imagesOf(userId)).map((o) => [o.key, o.size])).toEqual([[exact.body.key, FIVE_MB]]);
  });

  it("answers 403 for a key under another user's id, leaving their image as it was", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const aKey = await uploadImage(a.cookie, a.userId, IMAGES.png, "mine");
    const before = await imagesOf(a.userId);
    for (const key of [
      aKey,
      `${a.userId}/mine`,
      `${a.userId}/newone`,
      `${a.userId}x/evil`,
      `../${a.userId}/mine`,
      `/${a.userId}/mine`,
      "nobody/x",
    ]) {
      const { status, body } = await put(b.cookie, key, IMAGES.jpeg);
      expect(status, key).toBe(403);
      expect(body).toEqual({ success: false, error: "The key is not under the signed-in user" });
    }
    expect(await imagesOf(a.userId)).toEqual(before);
    expect(await bytesOf(aKey)).toEqual(IMAGES.png);
    expect((await userRow(a.userId))!.img_key).toBe(aKey);
    expect(await imagesOf(b.userId)).toEqual([]);
    expect((await userRow(b.userId))!.img_key).toBeNull();
  });

  it("answers 400 with a field error for a missing key or a malformed name under the caller's id", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("badkey"));
    const missing = await apiJson("PUT", "/r2", { cookie, raw: IMAGES.png });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, error: "Missing key", errors: { key: ["Missing key"] } });
    for (const key of [`${userId}/photo.png`, `${userId}/`, `${userId}/a/b`, `${userId}/UPPER`, `${userId}/..`]) {
      const { status, body } = await put(cookie, key, IMAGES.png);
      expect(status, key).toBe(400);
      expect(body.errors.key).toHaveLength(1);
    }
    expect(await imagesOf(userId)).toEqual([]);
  });

  it("needs the same-origin Origin header", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("csrf"));
    const res = await api("PUT", `/r2?key=${userId}/csrf`, {
      cookie,
      raw: IMAGES.png,
      originHeader: "https://evil.example",
    });
    expect(res.status).toBe(403);
    expect(await imagesOf(userId)).toEqual([]);
  });
});

describe("GET /api/r2/getPresignedUrl and /images/*", () => {
  it("answers 401 without a session", async () => {
    const { status } = await apiJson("GET", "/r2/getPresignedUrl?key=a/b");
    expect(status).toBe(401);
  });

  it("returns a signedUrl that serves the image with the sniffed type and nosniff", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("signed"));
    const key = await uploadImage(cookie, userId, IMAGES.webp, "face");
    const { status, body } = await apiJson("GET", `/r2/getPresignedUrl?key=${encodeURIComponent(key)}`, { cookie });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.signedUrl).toMatch(new RegExp(`^/images/${key}\\?expires=\\d+&sig=[0-9a-f]{64}$`));

    // The URL works on its own (an <img> has no API session), and answers the stored bytes.
    const res = await get(body.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/webp");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(IMAGES.webp);
  });

  it("answers 404 for another user's key or a key that does not exist", async () => {
    const a = await signIn(uniqueEmail("a"));
    const b = await signIn(uniqueEmail("b"));
    const aKey = await uploadImage(a.cookie, a.userId);
    for (const key of [aKey, `${b.userId}/missing`, "", "x"]) {
      const res = await api("GET", `/r2/getPresignedUrl?key=${encodeURIComponent(key)}`, { cookie: b.cookie });
      expect(res.status, key).toBe(404);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ success: false, error: "Image not found" });
      expect(text).not.toContain("sig=");
    }
  });

  it("a tampered signature, a signature for another key, or an expired URL answers 404", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("tamper"));
    const key = await uploadImage(cookie, userId, IMAGES.png, "one");
    // Another stored photo (an account keeps one, so another account's).
    const someoneElse = await signIn(uniqueEmail("tamper-other"));
    const other = await uploadImage(someoneElse.cookie, someoneElse.userId, IMAGES.jpeg, "two");
    expect(await env.IMAGES.head(other)).not.toBeNull();
    const { body } = await apiJson("GET", `/r2/getPresignedUrl?key=${key}`, { cookie });
    const url = new URL(body.signedUrl, "http://localhost");
    const sig = url.searchParams.get("sig")!;
    const expires = url.searchParams.get("expires")!;
    expect((await get(body.signedUrl)).status).toBe(200);

    const flipped = sig.slice(0, -1) + (sig.at(-1) === "0" ? "1" : "0");
    const cases = [
      `/images/${key}?expires=${expires}&sig=${flipped}`,
      `/images/${key}?expires=${expires}&sig=${sig.toUpperCase()}`,
      `/images/${key}?expires=${Number(expires) + 3_600_000}&sig=${sig}`,
      `/images/${other}?expires=${expires}&sig=${sig}`,
      `/images/${key}?expires=${expires}`,
      `/images/${key}`,
      `/images/${key}?expires=abc&sig=${sig}`,
    ];
    for (const path of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Content-Type") ?? "").not.toContain("image/");
    }

    // Signed with the real key, but for a time long past.
    const expired = await signedImageUrl(readConfig(env), key, Date.now() - 3 * 60 * 60 * 1000);
    expect(Number(new URL(expired, "http://localhost").searchParams.get("expires"))).toBeLessThan(Date.now());
    expect((await get(expired)).status).toBe(404);
    // The same helper with the current time works, so only the expiry made the difference.
    expect((await get(await signedImageUrl(readConfig(env), key))).status).toBe(200);
  });

  it("a signed URL for an image that was deleted answers 404", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("gone"));
    const key = await uploadImage(cookie, userId);
    const { body } = await apiJson("GET", `/r2/getPresignedUrl?key=${key}`, { cookie });
    await env.IMAGES.delete(key);
    expect((await get(body.signedUrl)).status).toBe(404);
  });

  it("a signed URL for a replaced photo stops working once the replacement deletes it", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("replaced-url"));
    const first = await uploadImage(cookie, userId, IMAGES.png, "first");
    const { body } = await apiJson("GET", `/r2/getPresignedUrl?key=${first}`, { cookie });
    expect((await get(body.signedUrl)).status).toBe(200);

    const second = await uploadImage(cookie, userId, IMAGES.jpeg, "second");
    expect(await settledImages(userId)).toEqual([second]);
    expect((await get(body.signedUrl)).status).toBe(404);
    expect((await api("GET", `/r2/getPresignedUrl?key=${first}`, { cookie })).status).toBe(404);
  });
});

describe("the profile-photo form action (multipart, field `photo`)", () => {
  it("stores the photo in R2 under the user's id and sets users.img_key", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("photo"));
    const res = await postMultipart("/iam/info.data", photoForm(IMAGES.jpeg, "me.jpg", "image/jpeg"), cookie);
    expect(res.status).toBe(200);
    expect((await decodeTurbo(res)).data).toEqual({
      intent: "profile-photo",
      ok: true,
      message: "Photo updated",
      result: undefined,
    });

    const row = await userRow(userId);
    expect(row!.img_key).toMatch(new RegExp(`^${userId}/[a-z0-9]+$`));
    expect(await bytesOf(row!.img_key!)).toEqual(IMAGES.jpeg);
    expect((await env.IMAGES.head(row!.img_key!))!.httpMetadata?.contentType).toBe("image/jpeg");

    // The settings page shows it through a signed URL that serves it.
    const page = await pageText(await get("/iam/info", { cookie }));
    const src = new RegExp(`/images/${row!.img_key}\\?expires=\\d+&sig=[0-9a-f]{64}`).exec(page)?.[0];
    expect(src).toBeDefined();
    const image = await get(src!);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/jpeg");
    expect(image.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("replaces the previous photo and removes it from R2", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("replace"));
    expect((await postMultipart("/iam/info.data", photoForm(IMAGES.png), cookie)).status).toBe(200);
    const first = (await userRow(userId))!.img_key!;
    expect((await postMultipart("/iam/info.data", photoForm(IMAGES.webp, "b.webp", "image/webp"), cookie)).status).toBe(
      200,
    );
    const second = (await userRow(userId))!.img_key!;
    expect(second).not.toBe(first);
    expect(await eventually(async () => (await imagesOf(userId)).length === 1)).toBe(true);
    expect((await imagesOf(userId)).map((o) => o.key)).toEqual([second]);
  });

  it("works as a plain (no-JavaScript) document post too", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("doc"));
    const res = await postMultipart("/iam/info", photoForm(IMAGES.png), cookie);
    expect(res.status).toBe(200);
    expect((await userRow(userId))!.img_key).toMatch(new RegExp(`^${userId}/`));
  });

  it("rejects an HTML file named photo.png with the spec's message, storing nothing", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("html-photo"));
    const res = await postMultipart("/iam/info.data", photoForm(IMAGES.html, "photo.png", "image/png"), cookie);
    expect(res.status).toBe(400);
    expect((await decodeTurbo(res)).data).toMatchObject({
      intent: "profile-photo",
      ok: false,
      message: MSG.unsupportedImage,
    });
    expect((await userRow(userId))!.img_key).toBeNull();
    expect(await imagesOf(userId)).toEqual([]);

    // Same answer for the document request.
    const doc = await postMultipart("/iam/info", photoForm(IMAGES.html, "photo.png", "image/png"), cookie);
    expect(doc.status).toBe(400);
    expect(await pageText(doc)).toContain(MSG.unsupportedImage);
    expect(await imagesOf(userId)).toEqual([]);
  });

  it("keeps the current photo when a rejected file is sent", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("keep"));
    await postMultipart("/iam/info.data", photoForm(IMAGES.png), cookie);
    const before = await userRow(userId);
    const images = await imagesOf(userId);
    const res = await postMultipart("/iam/info.data", photoForm(IMAGES.html), cookie);
    expect(res.status).toBe(400);
    expect(await userRow(userId)).toEqual(before);
    expect(await imagesOf(userId)).toEqual(images);
  });

  it("rejects a missing or empty file and a photo over 5 MB", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("photo-bad"));
    const noFile = new FormData();
    noFile.set("intent", "profile-photo");
    const none = await postMultipart("/iam/info.data", noFile, cookie);
    expect(none.status).toBe(400);
    expect((await decodeTurbo(none)).data.message).toBe(MSG.unsupportedImage);

    const empty = await postMultipart("/iam/info.data", photoForm(new Uint8Array()), cookie);
    expect(empty.status).toBe(400);

    const big = await postMultipart("/iam/info.data", photoForm(bigPng(FIVE_MB + 1)), cookie);
    expect(big.status).toBe(400);
    expect((await decodeTurbo(big)).data).toMatchObject({ ok: false, message: MSG.imageTooLarge });

    const huge = await postMultipart("/iam/info.data", photoForm(bigPng(FIVE_MB + 200 * 1024)), cookie);
    expect(huge.status).toBe(413);
    expect((await decodeTurbo(huge)).data).toMatchObject({ ok: false, message: MSG.imageTooLarge });

    expect((await userRow(userId))!.img_key).toBeNull();
    expect(await imagesOf(userId)).toEqual([]);
  });

  it("requires a signed-in user", async () => {
    const res = await postMultipart("/iam/info", photoForm(IMAGES.png));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/404/);
  });
});

describe("one profile photo per account (growth is bounded)", () => {
  /** The settings form's upload; returns the key it stored (now users.img_key). */
  async function formUpload(cookie: string, userId: string, bytes = IMAGES.png) {
    const res = await postMultipart("/iam/info.data", photoForm(bytes), cookie);
    expect(res.status).toBe(200);
    expect((await decodeTurbo(res)).data).toMatchObject({ intent: "profile-photo", ok: true });
    return (await userRow(userId))!.img_key!;
  }

  it("does not store under the client's chosen key, and makes a new key for every upload", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("chosen"));
    const requested = `${userId}/chosen`;
    const first = await put(cookie, requested, IMAGES.png);
    expect(first.status).toBe(200);
    expect(first.body.key).toMatch(serverKey(userId));
    expect(first.body.key).not.toBe(requested);
    expect(await env.IMAGES.head(requested)).toBeNull();
    expect((await imagesOf(userId)).map((o) => o.key)).toEqual([first.body.key]);

    // The same name again is a new object under a new key; the first one goes.
    const second = await put(cookie, requested, IMAGES.jpeg);
    expect(second.status).toBe(200);
    expect(second.body.key).toMatch(serverKey(userId));
    expect(second.body.key).not.toBe(first.body.key);
    expect(second.body.key).not.toBe(requested);
    expect(await settledImages(userId)).toEqual([second.body.key]);
    expect(await env.IMAGES.head(requested)).toBeNull();
    expect(await bytesOf(second.body.key)).toEqual(IMAGES.jpeg);
    expect((await userRow(userId))!.img_key).toBe(second.body.key);
    expect((await apiJson("GET", "/profile", { cookie })).body[0].img).toBe(second.body.key);
  });

  it("after 3 API uploads and 2 form uploads R2 holds one object for the user: users.img_key", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("many"));
    const keys = [
      await uploadImage(cookie, userId, IMAGES.png, "one"),
      await formUpload(cookie, userId, IMAGES.jpeg),
      await uploadImage(cookie, userId, IMAGES.webp, "two"),
      await formUpload(cookie, userId, IMAGES.png),
      await uploadImage(cookie, userId, IMAGES.jpeg, "three"),
    ];
    expect(new Set(keys).size).toBe(5);
    for (const key of keys) expect(key).toMatch(serverKey(userId));
    const current = keys.at(-1)!;
    expect((await userRow(userId))!.img_key).toBe(current);
    expect(await settledImages(userId)).toEqual([current]);
    expect(await bytesOf(current)).toEqual(IMAGES.jpeg);
    for (const key of keys.slice(0, -1)) expect(await env.IMAGES.head(key), key).toBeNull();

    // A form upload last works the same.
    const last = await formUpload(cookie, userId, IMAGES.webp);
    expect(await settledImages(userId)).toEqual([last]);
    expect(await bytesOf(last)).toEqual(IMAGES.webp);
  });

  it("two concurrent API uploads leave one object, the one users.img_key points to", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("race"));
    const [a, b] = await Promise.all([
      put(cookie, `${userId}/racea`, IMAGES.png),
      put(cookie, `${userId}/raceb`, IMAGES.jpeg),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.key).not.toBe(b.body.key);
    const current = (await userRow(userId))!.img_key!;
    expect([a.body.key, b.body.key]).toContain(current);
    expect(await settledImages(userId)).toEqual([current]);
    expect(await bytesOf(current)).toEqual(current === a.body.key ? IMAGES.png : IMAGES.jpeg);
  });

  it("an API upload and a form upload at once leave one object, the one users.img_key points to", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("race-mixed"));
    await uploadImage(cookie, userId, IMAGES.webp, "before");
    const [viaApi, viaForm] = await Promise.all([
      put(cookie, `${userId}/raceapi`, IMAGES.png),
      postMultipart("/iam/info.data", photoForm(IMAGES.jpeg, "f.jpg", "image/jpeg"), cookie),
    ]);
    expect([viaApi.status, viaForm.status]).toEqual([200, 200]);
    const current = (await userRow(userId))!.img_key!;
    expect(current).toMatch(serverKey(userId));
    expect(await settledImages(userId)).toEqual([current]);
    expect(await bytesOf(current)).toEqual(current === viaApi.body.key ? IMAGES.png : IMAGES.jpeg);
  });

  it("a refused upload neither stores an object nor touches the current photo", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("refused"));
    const current = await uploadImage(cookie, userId, IMAGES.png, "kept");
    for (const [bytes, status] of [
      [IMAGES.html, 415],
      [bigPng(FIVE_MB + 1), 413],
    ] as const) {
      expect((await put(cookie, `${userId}/refused`, bytes)).status).toBe(status);
    }
    expect((await put(cookie, `${userId}/Bad.Name`, IMAGES.jpeg)).status).toBe(400);
    await new Promise((r) => setTimeout(r, 100));
    expect((await userRow(userId))!.img_key).toBe(current);
    expect((await imagesOf(userId)).map((o) => o.key)).toEqual([current]);
    expect(await bytesOf(current)).toEqual(IMAGES.png);
  });
});
