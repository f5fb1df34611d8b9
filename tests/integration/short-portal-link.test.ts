import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TEXT_VALUE_MAX } from "~/domain/text-message";
import { portalLink, shortPortalLink, verifyShortPortalToken } from "~/links/index.server";
import { readConfig } from "~/platform/config.server";
import { db, makeDebtor } from "./fixtures";
import { get, location, signIn, uniqueEmail } from "./helpers";

// The short link a text message carries (decisions/070): /t/<key>.<96-bit signature>, leading to
// the debtor's page; anything else answers 404.

const config = () => readConfig(env);

async function debtorWithKey(ownerId: string) {
  const d = await makeDebtor(ownerId, { fullName: "Short Link" });
  const row = await env.DB.prepare("SELECT opt_out_key FROM debtors WHERE id = ?")
    .bind(d.id)
    .first<{ opt_out_key: string | null }>();
  return { id: d.id, ownerId, optOutKey: row?.opt_out_key ?? null };
}

describe("/t/:token", () => {
  it("is short enough for a text and leads to the debtor's own page", async () => {
    const owner = await signIn(uniqueEmail("short-link"));
    const debtor = await debtorWithKey(owner.userId);
    const link = (await shortPortalLink(db(), config(), debtor))!;
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/t\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{16}$/);
    // The path with an origin of up to 18 characters ("https://dunly.app") fits the text's room.
    expect(path.length + "https://dunly.app".length).toBeLessThanOrEqual(TEXT_VALUE_MAX.link);

    const res = await get(path);
    expect(res.status).toBe(302);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const full = await portalLink(db(), config(), debtor);
    expect(location(res)?.pathname).toBe(new URL(full).pathname);
    // The page it leads to is the debtor's.
    expect((await get(new URL(full).pathname)).status).toBe(200);
  });

  it("answers 404 for an altered, another debtor's, another purpose's or malformed token", async () => {
    const owner = await signIn(uniqueEmail("short-link-bad"));
    const a = await debtorWithKey(owner.userId);
    const b = await debtorWithKey(owner.userId);
    const path = new URL((await shortPortalLink(db(), config(), a))!).pathname;
    const token = path.slice("/t/".length);
    const [key, signature] = token.split(".") as [string, string];
    const other = new URL((await shortPortalLink(db(), config(), b))!).pathname.slice("/t/".length);
    const flip = (c: string) => (c === "A" ? "B" : "A");
    const bad = [
      `${key}.${flip(signature[0]!)}${signature.slice(1)}`,
      `${key}.${other.split(".")[1]}`,
      `${other.split(".")[0]}.${signature}`,
      `${key}.${signature}x`,
      `${key}`,
      // The debtor's page token under /t/: another purpose.
      new URL(await portalLink(db(), config(), a)).pathname.slice("/d/".length),
    ];
    for (const t of bad) {
      expect(await verifyShortPortalToken(db(), config(), t), t).toBeNull();
      expect((await get(`/t/${encodeURIComponent(t)}`)).status, t).toBe(404);
    }
    // The key the link was made with (a debtor written without one got one then).
    const stored = await env.DB.prepare("SELECT opt_out_key AS k FROM debtors WHERE id = ?")
      .bind(a.id)
      .first<{ k: string }>();
    expect(await verifyShortPortalToken(db(), config(), token)).toEqual({
      id: a.id,
      ownerId: a.ownerId,
      optOutKey: stored?.k,
    });
  });

  it("dies when the debtor's address changes (a new key)", async () => {
    const owner = await signIn(uniqueEmail("short-link-moved"));
    const debtor = await debtorWithKey(owner.userId);
    const path = new URL((await shortPortalLink(db(), config(), debtor))!).pathname;
    await env.DB.prepare("UPDATE debtors SET opt_out_key = lower(hex(randomblob(16))) WHERE id = ?")
      .bind(debtor.id)
      .run();
    expect((await get(path)).status).toBe(404);
  });
});
