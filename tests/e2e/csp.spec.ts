import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { addDebtor, debtorOption, signInByRequest, uniqueEmail } from "./helpers";

const avatar = fileURLToPath(new URL("../fixtures/avatar.png", import.meta.url));

/** Collects every console message about the Content-Security-Policy, in any frame. */
async function watchCsp(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(`${page.url()}: ${text}`);
  });
  // Violations the console might word differently are reported too.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Refused to load ${event.blockedURI} (Content Security Policy: ${event.violatedDirective})`);
    });
  });
  return problems;
}

/** Waits until the page has hydrated and finished loading what it loads after that. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
}

test("the Content-Security-Policy: its headers and nonce, the theme boot script, the preview frame and a signed photo", async ({
  page,
}) => {
  const problems = await watchCsp(page);

  // The headers, and the nonce of the page's inline scripts is the one the policy names.
  const landing = await page.goto("/");
  const headers = landing!.headers();
  const csp = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'(;|$)/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("connect-src 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const scriptNonces = await page.evaluate(() => [...document.scripts].map((s) => s.nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  // A fresh nonce per response.
  const again = (await page.request.get("/")).headers()["content-security-policy"];
  expect(again).not.toBe(csp);
  await expect(page.getByRole("heading", { name: "Ready to annoy people who owe you money?" })).toBeVisible();
  await settle(page);

  // The theme boot script (inline, nonce) still runs before paint.
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await page.evaluate(() => document.cookie)).toMatch(/(^|; )tz=/);

  // Every page, modal and menu, both signed out and in, is loaded under the policy by the sweep
  // (tests/e2e/accessibility.spec.ts), which fails on any refusal. Here: what it does not show.
  await signInByRequest(page, { redirectTo: "/dashboard" });
  const debtorEmail = uniqueEmail("csp-debtor");
  await addDebtor(page, "Cora Policy", debtorEmail, "120.50", "2");

  // The new-schedule page with the e-mail preview in its sandboxed frame, showing the chosen
  // debtor's own details.
  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ label: debtorOption("Cora Policy", debtorEmail) });
  await page.getByLabel("Preset").selectOption({ label: "Escalating Reminders" });
  await expect(page.frameLocator('iframe[title^="Preview:"]').locator("body")).toContainText("Cora Policy");
  await settle(page);

  // Settings with a photo: the header shows it from a signed /images URL.
  await page.goto("/iam/info");
  await page.locator("#photo-input").setInputFiles(avatar);
  await expect(page.getByRole("button", { name: "Open account menu" }).locator("img")).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole("button", { name: "Open account menu" }).locator("img")).toBeVisible();
  await settle(page);

  expect(problems).toEqual([]);
});

// The sign-in link page's headers (Referrer-Policy: strict-origin, frame-ancestors 'none'), which
// need no browser: tests/integration/link-pages.test.ts.
