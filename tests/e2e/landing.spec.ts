import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { expectAddressRefused, idle, readSignInLink, requestSignInLink, uniqueEmail } from "./helpers";

// The landing page is sent without module scripts (docs/decisions/026): it downloads no JavaScript,
// even after it has settled, and everything on it works as HTML, from the keyboard too.

/**
 * Every response the page receives from now on, with its resource type and gzip size; `scripts`
 * is the JavaScript among them.
 */
function watchResponses(page: Page) {
  const all: { url: string; type: string; gzip: number }[] = [];
  const scripts: typeof all = [];
  page.on("response", async (response) => {
    const contentType = response.headers()["content-type"] ?? "";
    const script = /\.m?js(\?|$)/.test(new URL(response.url()).pathname) || contentType.includes("javascript");
    // Listed at once (an assertion right after must see it), sized when its body has arrived.
    const entry = { url: response.url(), type: response.request().resourceType(), gzip: 0 };
    all.push(entry);
    if (script) scripts.push(entry);
    entry.gzip = gzipSync(await response.body().catch(() => Buffer.alloc(0))).length;
  });
  return { all, scripts };
}

/** "document 1 (4.1 KB), stylesheet 1 (10.2 KB)": what was received, by type, gzip. */
function summary(responses: { type: string; gzip: number }[]) {
  const byType = new Map<string, { count: number; gzip: number }>();
  for (const { type, gzip } of responses) {
    const row = byType.get(type) ?? { count: 0, gzip: 0 };
    row.count += 1;
    row.gzip += gzip;
    byType.set(type, row);
  }
  return [...byType].map(([type, row]) => `${type} ${row.count} (${(row.gzip / 1000).toFixed(1)} KB)`).join(", ");
}

/** Loads `/` and waits until it has settled (`idle`: network idle, then 1 s for anything fetched later). */
async function settledLanding(page: Page, path = "/") {
  await page.goto(path);
  await idle(page);
}

test("/ downloads no JavaScript; a bad address keeps what was typed; signing in by magic link works from it", async ({
  page,
}) => {
  const { all, scripts } = watchResponses(page);
  await settledLanding(page);
  await expect(page.getByRole("heading", { name: "Ready to annoy people who owe you money?" })).toBeVisible();
  expect(scripts).toEqual([]);
  // What bench/RESULTS.md reports: JavaScript (gzip), and everything the page received.
  console.log(
    `/ settled (${test.info().project.name}): ${scripts.length} JavaScript responses, ${scripts.reduce((sum, s) => sum + s.gzip, 0)} bytes gzip; received: ${summary(all)}`,
  );
  expect(
    await page.evaluate(() => document.querySelectorAll('script[type="module"], link[rel="modulepreload"]').length),
  ).toBe(0);

  // The form posts as a document: the field error comes back with the typed value kept.
  await expectAddressRefused(page, "not-an-address");
  await expect(page.getByPlaceholder("Your Email")).toHaveAttribute("aria-invalid", "true");
  const email = uniqueEmail("landing");
  await requestSignInLink(page, email);
  // The field is empty again after the link was sent.
  await expect(page.getByPlaceholder("Your Email")).toHaveValue("");
  expect(scripts).toEqual([]);

  await page.goto(await readSignInLink(page, email));
  await page.getByRole("button", { name: "Continue to Dunly" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
  // Signed in, / sends the user on to the app.
  await page.goto("/");
  await expect(page).not.toHaveURL(/localhost:\d+\/$/);
});

test("the FAQ and the header's menu open from the keyboard; the menu's theme switch and links work @phone", async ({
  page,
}) => {
  const { scripts } = watchResponses(page);
  await page.goto("/");

  // An FAQ question: reached with Tab like any control, Enter opens it, Space closes it.
  const question = page.locator("summary", { hasText: "How can I pay?" });
  const answer = page.getByText("By card, through Stripe's secure checkout");
  await question.focus();
  await expect(answer).toBeHidden();
  await page.keyboard.press("Enter");
  await expect(answer).toBeVisible();
  await page.keyboard.press("Space");
  await expect(answer).toBeHidden();

  // The menu: the first thing after the skip link and the logo.
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Dunly" })).toBeFocused();
  await page.keyboard.press("Tab");
  const menu = page.getByTestId("visitor-menu");
  const summary = menu.locator("summary");
  await expect(summary).toBeFocused();
  await expect(summary).toHaveAccessibleName("Menu");
  const places = menu.getByRole("navigation", { name: "Menu" });
  await expect(places).toBeHidden();
  await page.keyboard.press("Enter");
  await expect(places).toBeVisible();
  for (const [name, href] of [
    ["Home", "/"],
    ["Sign in", "/#sign-in"],
    ["Pricing", "/pricing"],
    ["FAQ", "/#faq"],
  ]) {
    await page.keyboard.press("Tab");
    await expect(places.getByRole("link", { name, exact: true })).toBeFocused();
    await expect(places.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  // The theme switch: one button, pressed in the light theme.
  await page.keyboard.press("Tab");
  const light = menu.getByRole("button", { name: "Light theme" });
  await expect(light).toBeFocused();
  await expect(light).toHaveAttribute("aria-pressed", "false");
  // Escape closes the menu and returns to its summary (the inline handler); a click outside too.
  await page.keyboard.press("Escape");
  await expect(places).toBeHidden();
  await expect(summary).toBeFocused();
  await summary.click();
  await expect(places).toBeVisible();
  // A click outside the menu (the heading's start: on a phone the open menu covers its middle).
  await page.getByRole("heading", { level: 1 }).click({ position: { x: 2, y: 2 } });
  await expect(places).toBeHidden();
  await summary.focus();
  await page.keyboard.press("Space");
  await expect(places).toBeVisible();
  await light.focus();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dracula");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/localhost:\d+\/$/);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  // Kept where the hydrated pages' switch keeps it too, and applied on the next page before paint.
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  expect(scripts).toEqual([]);
  await page.goto("/sign-in/password");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.goto("/");
  await summary.click();
  await expect(light).toHaveAttribute("aria-pressed", "true");
  await light.click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dracula");

  // The menu's FAQ link leads to the FAQ, the password link to its page.
  await summary.click();
  await places.getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL(/\/#faq$/);
  await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeInViewport();
  await page.getByRole("link", { name: "Sign in with a password" }).click();
  await expect(page).toHaveURL(/\/sign-in\/password$/);
});

test("Continue with Google explains itself without scripts when no Google client is configured", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page.getByText("Google sign-in is not available on this server yet.")).toBeVisible();
  // The landing page has no scripts: the button's GET comes back with the reason (docs/decisions/026).
  await expect(page).toHaveURL(/\/\?error=google-unavailable$/);
});

test("a hydrated page's links and redirects to / load it as a document, at the place linked to", async ({ page }) => {
  await page.goto("/sign-in/password");
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  // A link with a hash (the menu's and the page's own), then the logo: a plain link to /.
  await page.getByRole("link", { name: "magic link" }).click();
  await expect(page).toHaveURL(/\/#sign-in$/);
  await expect(page.getByTestId("visitor-menu")).toBeVisible();
  expect(await page.evaluate(() => document.querySelectorAll('script[type="module"]').length)).toBe(0);
  await page.goto("/sign-in/password");
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("menuitem", { name: "FAQ" }).click();
  await expect(page).toHaveURL(/\/#faq$/);
  await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeInViewport();
  await page.goto("/sign-in/password");
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  await page.getByRole("link", { name: "Dunly" }).click();
  await expect(page).toHaveURL(/localhost:\d+\/$/);
  await expect(page.getByTestId("visitor-menu")).toBeVisible();
  expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);
});
