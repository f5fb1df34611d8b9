import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, expect, test } from "@playwright/test";
import lighthouse from "lighthouse";
import { chromiumLaunchOptions } from "../../scripts/chromium.mjs";
import { signInRequests, uniqueEmail } from "./helpers";

// Lighthouse's accessibility score of 100 on / (signed out) and /pricing (signed in), with
// Lighthouse's default (mobile) settings, against the same server as every other end-to-end test.
// Lighthouse drives a Chromium of its own through the DevTools port; a persistent context is that
// browser's default one, so the session cookie set here is the one Lighthouse's tab sends.
// `npm run lighthouse` reports all four categories on more pages (scripts/lighthouse.mjs).

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

test("Lighthouse: accessibility 100 on / and /pricing", async ({ baseURL }, testInfo) => {
  // One browser of Lighthouse's own settings serves both widths.
  test.skip(testInfo.project.name !== "desktop", "Lighthouse emulates its own phone");
  test.setTimeout(120_000);
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), "dunly-lighthouse-"));
  const context = await chromium.launchPersistentContext(profile, {
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, `--remote-debugging-port=${port}`],
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const scores: Record<string, { score: number; failing: string[] }> = {};
    const score = async (path: string, signedIn: boolean) => {
      const result = await lighthouse(
        `${baseURL}${path}`,
        { port, output: "json", logLevel: "error", onlyCategories: ["accessibility"], disableStorageReset: signedIn },
        undefined,
      );
      const lhr = result!.lhr;
      expect(lhr.runtimeError, path).toBeUndefined();
      // A signed-in page that answered with the sign-in screen would be scored for the wrong page.
      expect(new URL(lhr.finalDisplayedUrl).pathname, "the page scored").toBe(path);
      scores[path] = {
        score: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        failing: Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
          .map((a) => a.id),
      };
    };
    await score("/", false);
    await signInRequests(page, { email: uniqueEmail("lighthouse"), origin: new URL(baseURL!).origin });
    await score("/pricing", true);
    expect(scores).toEqual({ "/": { score: 100, failing: [] }, "/pricing": { score: 100, failing: [] } });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
