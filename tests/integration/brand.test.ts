import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accentColours } from "~/domain/brand";
import { optOutLink, paidClaimLink, portalLink } from "~/links/index.server";
import { readConfig } from "~/platform/config.server";
import { daytimeZone } from "../support/daytime-zone";
import {
  bigPng,
  decodeTurbo,
  eventually,
  FIVE_MB,
  formAction,
  IMAGES,
  imagesOf,
  MSG,
  postMultipart,
  replyErrors,
} from "./data-helpers";
import { fireAndSend, resendDelivered } from "./engine-helpers";
import { db, makeDebtor, makeInvoice, makeSchedule, setPlan } from "./fixtures";
import { get, pageText, postForm, signIn, uniqueEmail } from "./helpers";

/**
 * The user's brand (docs/decisions/058): Settings → Brand saves the accent, signature and "Powered by
 * Dunly" (the top plan only) with field errors and the values kept; the logo is stored as the
 * profile photo is and served publicly by its random name; reminders, receipts and the debtor's
 * pages carry it, and the pages carry no link to Dunly's landing page.
 */

type Brand = {
  brand_logo: string | null;
  brand_accent: string | null;
  brand_signature: string | null;
  brand_powered_by: number;
};

const brandOf = (userId: string) =>
  env.DB.prepare("SELECT brand_logo, brand_accent, brand_signature, brand_powered_by FROM users WHERE id = ?")
    .bind(userId)
    .first<Brand>();

function logoForm(bytes: Uint8Array<ArrayBuffer> | string, name = "logo.png", type = "image/png") {
  const form = new FormData();
  form.set("intent", "brand-logo");
  form.set("logo", new File([bytes], name, { type }));
  return form;
}

const SAVE = { intent: "brand-save", accent: "#0f766e", signature: "Jane\nAccounts", powered_by: "on" };

describe("Settings → Brand", () => {
  it("refuses a malformed colour and a long signature with field errors, keeping what was typed", async () => {
    const a = await signIn(uniqueEmail("brand-form"));
    const page = await pageText(await get("/iam/brand", { cookie: a.cookie }));
    expect(page).toContain("Your brand");
    expect(page).toContain("#6d28d9");

    const bad = await formAction(
      "/iam/brand",
      { ...SAVE, accent: "violet", signature: "Kind regards,\nJane" },
      a.cookie,
    );
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data).accent?.[0]).toMatch(/six hexadecimal digits/);
    const kept = (bad.data as { result: { initialValue: Record<string, string> } }).result.initialValue;
    expect(kept.accent).toBe("violet");
    expect(kept.signature).toBe("Kind regards,\nJane");

    const long = await formAction("/iam/brand", { ...SAVE, signature: "x".repeat(501) }, a.cookie);
    expect(long.status).toBe(400);
    expect(replyErrors(long.data).signature?.[0]).toMatch(/500 characters/);
    expect(await brandOf(a.userId)).toMatchObject({ brand_accent: null, brand_signature: null, brand_powered_by: 1 });

    // Without JavaScript: the page answers with the errors and the values.
    const doc = await postForm("/iam/brand", { ...SAVE, accent: "#12345" }, { cookie: a.cookie });
    expect(doc.status).toBe(400);
    const docText = await pageText(doc);
    expect(docText).toContain("six hexadecimal digits");
    expect(docText).toContain("#12345");

    const ok = await formAction("/iam/brand", { ...SAVE, accent: "#0F766E" }, a.cookie);
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    expect(await brandOf(a.userId)).toMatchObject({
      brand_accent: "#0f766e",
      brand_signature: "Jane\nAccounts",
      brand_powered_by: 1,
    });
  });

  it("says a pale colour was adjusted, and shows the colours used", async () => {
    const a = await signIn(uniqueEmail("brand-pale"));
    expect((await formAction("/iam/brand", { ...SAVE, accent: "#ffd400" }, a.cookie)).status).toBe(200);
    const page = await pageText(await get("/iam/brand", { cookie: a.cookie }));
    const { light } = accentColours("#ffd400");
    expect(page).toContain("too little contrast on white");
    expect(page).toContain(light);
    // No-JS: only the picker changed (the text still what the page showed) takes the picker's colour.
    const picked = await formAction(
      "/iam/brand",
      { ...SAVE, accent: "#ffd400", accent_was: "#ffd400", accent_picker: "#0369a1" },
      a.cookie,
    );
    expect(picked.status).toBe(200);
    expect((await brandOf(a.userId))?.brand_accent).toBe("#0369a1");
  });

  it("lets only the top plan remove Powered by Dunly, enforced on the server", async () => {
    const a = await signIn(uniqueEmail("brand-plan"));
    await setPlan(a.userId, "medium");
    // A POST without the box (as a crafted request would send it): refused, nothing written.
    const { powered_by: _, ...off } = SAVE;
    const refused = await formAction("/iam/brand", off, a.cookie);
    expect(refused.status).toBe(403);
    expect(replyErrors(refused.data).powered_by?.[0]).toMatch(/Only the Aggressive plan/);
    expect(await brandOf(a.userId)).toMatchObject({ brand_powered_by: 1, brand_accent: null });
    const page = await pageText(await get("/iam/brand", { cookie: a.cookie }));
    expect(page).toContain("Only the Aggressive plan can remove it");

    await setPlan(a.userId, "aggressive");
    expect((await formAction("/iam/brand", off, a.cookie)).status).toBe(200);
    expect((await brandOf(a.userId))?.brand_powered_by).toBe(0);
  });
});

describe("the logo", () => {
  it("is stored like the profile photo, served publicly by its name with long caching, replaced and removed", async () => {
    const a = await signIn(uniqueEmail("logo"));
    const html = await postMultipart("/iam/brand.data", logoForm(IMAGES.html, "logo.png"), a.cookie);
    expect(html.status).toBe(400);
    expect((await decodeTurbo(html)).data).toMatchObject({ intent: "brand-logo", ok: false });
    const large = await postMultipart("/iam/brand.data", logoForm(bigPng(FIVE_MB + 1)), a.cookie);
    expect(large.status).toBe(400);
    expect((await decodeTurbo(large)).data).toMatchObject({
      intent: "brand-logo",
      ok: false,
      message: MSG.imageTooLarge,
    });
    expect(await imagesOf(a.userId)).toEqual([]);
    expect((await brandOf(a.userId))?.brand_logo).toBeNull();

    expect((await postMultipart("/iam/brand.data", logoForm(IMAGES.png), a.cookie)).status).toBe(200);
    const first = (await brandOf(a.userId))?.brand_logo as string;
    expect(first).toMatch(/^[a-z0-9]{16,}$/);
    expect((await imagesOf(a.userId)).map((o) => o.key)).toEqual([`${a.userId}/${first}`]);

    // Public: no session, no signature; cached a year; the type sniffed at upload.
    const served = await get(`/logos/${first}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES.png);

    // A profile photo is never served as a logo.
    await postMultipart(
      "/iam/info.data",
      (() => {
        const f = new FormData();
        f.set("intent", "profile-photo");
        f.set("photo", new File([IMAGES.jpeg], "me.jpg", { type: "image/jpeg" }));
        return f;
      })(),
      a.cookie,
    );
    const photo = (
      await env.DB.prepare("SELECT img_key FROM users WHERE id = ?").bind(a.userId).first<{ img_key: string }>()
    )?.img_key as string;
    expect((await get(`/logos/${photo.split("/")[1]}`)).status).toBe(404);
    expect((await get(`/logos/${a.userId}`)).status).toBe(404);
    expect((await get("/logos/..%2F..%2Fx")).status).toBe(404);

    expect(
      (await postMultipart("/iam/brand.data", logoForm(IMAGES.webp, "b.webp", "image/webp"), a.cookie)).status,
    ).toBe(200);
    const second = (await brandOf(a.userId))?.brand_logo as string;
    expect(second).not.toBe(first);
    expect(await eventually(async () => !(await imagesOf(a.userId)).some((o) => o.key.endsWith(first)))).toBe(true);
    expect((await get(`/logos/${first}`)).status).toBe(404);

    const removed = await formAction("/iam/brand", { intent: "brand-logo-remove" }, a.cookie);
    expect(removed.status).toBe(200);
    expect((await brandOf(a.userId))?.brand_logo).toBeNull();
    expect(await eventually(async () => (await imagesOf(a.userId)).length === 1)).toBe(true);
    expect((await get(`/logos/${second}`)).status).toBe(404);
  });

  it("is the owner's own: nothing a request names can set another user's logo", async () => {
    const a = await signIn(uniqueEmail("logo-a"));
    const b = await signIn(uniqueEmail("logo-b"));
    await postMultipart("/iam/brand.data", logoForm(IMAGES.png), a.cookie);
    const aLogo = (await brandOf(a.userId))?.brand_logo as string;
    // B names A's logo (as the file's name, a text field, in the save): B's row never takes it.
    const named = new FormData();
    named.set("intent", "brand-logo");
    named.set("logo", aLogo);
    expect((await postMultipart("/iam/brand.data", named, b.cookie)).status).toBe(400);
    await formAction("/iam/brand", { ...SAVE, brand_logo: aLogo, logo: aLogo }, b.cookie);
    expect((await brandOf(b.userId))?.brand_logo).toBeNull();
    // B's removal touches only B's (there is none).
    expect((await formAction("/iam/brand", { intent: "brand-logo-remove" }, b.cookie)).status).toBe(404);
    expect((await brandOf(a.userId))?.brand_logo).toBe(aLogo);
    expect((await imagesOf(a.userId)).map((o) => o.key)).toEqual([`${a.userId}/${aLogo}`]);
    // B's own upload lands under B's id.
    await postMultipart("/iam/brand.data", logoForm(IMAGES.png), b.cookie);
    expect((await imagesOf(b.userId))[0]?.key.startsWith(`${b.userId}/`)).toBe(true);
  });

  it("is in the account's export, and the account's deletion removes it", async () => {
    const a = await signIn(uniqueEmail("logo-gone"));
    await postMultipart("/iam/brand.data", logoForm(IMAGES.png), a.cookie);
    const logo = (await brandOf(a.userId))?.brand_logo as string;
    const exported = await (await get("/account-data.json", { cookie: a.cookie })).text();
    expect(exported).toContain(logo);

    const res = await postForm("/iam/info", { intent: "account-delete", confirm_email: a.email }, { cookie: a.cookie });
    expect(res.status).toBe(302);
    // Not served from the moment the account is being deleted.
    expect((await get(`/logos/${logo}`)).status).toBe(404);
    expect(await eventually(async () => (await imagesOf(a.userId)).length === 0, 15_000)).toBe(true);
  });
});

describe("the brand where debtors see it", () => {
  async function brandedAccount(prefix: string) {
    const a = await signIn(uniqueEmail(prefix));
    await env.DB.prepare("UPDATE users SET business_name = 'Acme Widgets Ltd' WHERE id = ?").bind(a.userId).run();
    await postMultipart("/iam/brand.data", logoForm(IMAGES.png), a.cookie);
    expect(
      (
        await formAction(
          "/iam/brand",
          { ...SAVE, accent: "#ffd400", signature: "Jane Doe\nHead of accounts" },
          a.cookie,
        )
      ).status,
    ).toBe(200);
    const logo = (await brandOf(a.userId))?.brand_logo as string;
    const debtor = await makeDebtor(a.userId, {
      fullName: "Bo Buyer",
      invoice: false,
      debtCents: 40_000,
      timeZone: daytimeZone(),
    });
    await makeInvoice(a.userId, debtor.id, { amountCents: 40_000, number: "INV-9", dueOn: "2026-11-01" });
    return { a, logo, debtor };
  }

  it("the reminder carries the logo, the adjusted accent, the signature and the footer in the user's voice", async () => {
    const { a, logo, debtor } = await brandedAccount("brand-mail");
    const schedule = await makeSchedule(a.userId, debtor.id, { frequency: "now" });
    expect(await fireAndSend(schedule, Date.now() + 2 * 60_000)).toMatchObject({ kind: "done", status: "sent" });
    const [mail] = await resendDelivered(debtor.email);
    const html = String(mail?.body.html ?? "");
    const text = String(mail?.body.text ?? "");
    const origin = new URL(
      await portalLink(db(), readConfig(env), { id: debtor.id, ownerId: a.userId, optOutKey: null }),
    ).origin;
    expect(html).toContain(`src="${origin}/logos/${logo}"`);
    const { light } = accentColours("#ffd400");
    expect(html).toContain(`color:${light}`);
    expect(html).not.toContain("color:#ffd400");
    expect(text).toContain("Head of accounts");
    expect(text).toContain("Sent by Acme Widgets Ltd. To reach them, reply to this e-mail.");
    expect(text).toContain("Powered by Dunly");
    // The opt-out stays.
    expect(html).toContain("data-opt-out");
  });

  it("the in-app preview shows the brand, its logo allowed by the preview's policy", async () => {
    const { a, logo } = await brandedAccount("brand-preview");
    const res = await get("/schedule/preview?template=initial&tone=1", { cookie: a.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    const src = new RegExp(`src="(https?://[^"]+)/logos/${logo}"`).exec(html);
    expect(src).not.toBeNull();
    expect(res.headers.get("Content-Security-Policy")).toContain(`img-src data: https: ${src?.[1]}`);
    expect(html).toContain("Head of accounts");
    expect(html).toContain(`color:${accentColours("#ffd400").light}`);
    expect(html).toContain("Sent by Acme Widgets Ltd.");
  });

  it("the debtor's pages show the business and logo, the accent, no link to Dunly's landing page, and Powered by Dunly", async () => {
    const { a, logo, debtor } = await brandedAccount("brand-portal");
    const target = { id: debtor.id, ownerId: a.userId, optOutKey: null };
    const config = readConfig(env);
    for (const link of [portalLink, paidClaimLink, optOutLink]) {
      const path = new URL(await link(db(), config, target)).pathname;
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, path).toContain("Acme Widgets Ltd");
      expect(html, path).toContain(`/logos/${logo}`);
      expect(html, path).not.toMatch(/href="\/"/);
      expect(html, path).not.toContain('href="/pricing"');
      expect(html, path).toContain(`--brand-light:${accentColours("#ffd400").light}`);
      expect(html, path).toContain("Powered by Dunly");
      expect(html, path).toMatch(/<title>[^<]* · Acme Widgets Ltd<\/title>/);
    }
    // Removed on the top plan: gone from the pages.
    await setPlan(a.userId, "aggressive");
    const { powered_by: _, ...off } = SAVE;
    expect((await formAction("/iam/brand", { ...off, accent: "#ffd400" }, a.cookie)).status).toBe(200);
    const portal = await (await get(new URL(await portalLink(db(), config, target)).pathname)).text();
    expect(portal).not.toContain("Powered by Dunly");
    // A downgrade shows it again, without a write.
    await setPlan(a.userId, "medium");
    const again = await (await get(new URL(await portalLink(db(), config, target)).pathname)).text();
    expect(again).toContain("Powered by Dunly");
  });
});
