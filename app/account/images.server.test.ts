import { describe, expect, it } from "vitest";
import { IMAGE_URL_SECRET_MISSING, signedImageUrl, verifyImageSignature } from "./images.server";

const KEY = "user1/photo1";
const NOW = Date.UTC(2027, 0, 1);

function parts(url: string) {
  const u = new URL(url, "http://localhost");
  return { expires: u.searchParams.get("expires") ?? undefined, sig: u.searchParams.get("sig") ?? undefined };
}

describe("signed image URLs", () => {
  it("verify with the secret that signed them and no other", async () => {
    const { expires, sig } = parts(await signedImageUrl({ IMAGE_URL_SECRET: "secret-a" }, KEY, NOW));
    expect(await verifyImageSignature({ IMAGE_URL_SECRET: "secret-a" }, KEY, expires, sig, NOW)).toBe(true);
    expect(await verifyImageSignature({ IMAGE_URL_SECRET: "secret-b" }, KEY, expires, sig, NOW)).toBe(false);
  });

  it("are never signed or checked without IMAGE_URL_SECRET: no built-in key to fall back to", async () => {
    for (const config of [{}, { IMAGE_URL_SECRET: undefined }]) {
      await expect(signedImageUrl(config, KEY, NOW)).rejects.toThrow(IMAGE_URL_SECRET_MISSING);
      await expect(verifyImageSignature(config, KEY, String(NOW + 1), "0".repeat(64), NOW)).rejects.toThrow(
        IMAGE_URL_SECRET_MISSING,
      );
    }
  });
});
