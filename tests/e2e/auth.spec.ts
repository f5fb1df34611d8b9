import { expect, test } from "@playwright/test";
import {
  expectAddressRefused,
  readSignInLink,
  requestSignInLink,
  signIn,
  signInByRequest,
  signInThroughLink,
  uniqueEmail,
} from "./helpers";

test("a new user signs in by magic link, uses the drawer and theme, and signs out @phone", async ({ page }) => {
  const email = uniqueEmail("journey");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Ready to annoy people who owe you money?" })).toBeVisible();
  // The journey itself, step by step: the form, the e-mailed link, the verify page.
  await signInThroughLink(page, email);

  // The places of the app: in the header on a wide screen, in the drawer on a phone; the current
  // one is marked, once.
  const phone = test.info().project.name === "phone";
  const places = async () => {
    if (!phone) return page.getByRole("navigation", { name: "Main" });
    await page.getByRole("button", { name: "Open account menu" }).click();
    return page.getByRole("dialog", { name: "Menu" }).getByRole("navigation");
  };
  let nav = await places();
  for (const [name, href] of [
    ["Dashboard", "/dashboard"],
    ["Debtors", "/debtors-list"],
    ["Schedules", "/schedules-list"],
    ["Report", "/report"],
    ["Pricing", "/pricing"],
    ["Settings", "/iam/info"],
  ]) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await nav.getByRole("link", { name: "Debtors", exact: true }).click();
  await expect(page).toHaveURL(/\/debtors-list$/);
  nav = await places();
  await expect(nav.getByRole("link", { name: "Debtors", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/iam\/info$/);
  await page.getByRole("tab", { name: "Organizations" }).click();
  await expect(page).toHaveURL(/\/iam\/orgs$/);
  nav = await places();
  await expect(nav.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  if (phone) await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Open account menu" }).click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  await expect(drawer.getByRole("link", { name: "Dashboard" })).toBeVisible();
  await expect(drawer.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/iam/info");
  await expect(drawer.getByRole("link", { name: "Report" })).toHaveAttribute("href", "/report");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dracula");
  await drawer.getByRole("switch").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");

  // The theme survives a reload, applied before paint by the inline script.
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");

  await page.getByRole("button", { name: "Open account menu" }).click();
  await page.getByRole("dialog", { name: "Menu" }).getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByPlaceholder("Your Email")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/404\?redirectTo=%2Fdashboard$/);
});

test("a visitor opening /dashboard gets the sign-in page and reaches /dashboard after signing in; /pricing is open to them", async ({
  page,
}) => {
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { name: "Pricing", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Start free trial/ })).toHaveCount(3);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/404\?redirectTo=%2Fdashboard$/);
  await expect(page.getByRole("heading", { name: "Sign in to Dunly" })).toBeVisible();
  await expect(page.getByText("Sign in to open this page. You come back to it afterwards.")).toBeVisible();
  await signIn(page, { onCurrentPage: true });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});

test("the sign-in form rejects a bad address and a used link does not work twice", async ({ page }) => {
  await page.goto("/");
  await expectAddressRefused(page, "not-an-email");

  const email = uniqueEmail("once");
  await requestSignInLink(page, email);
  const link = await readSignInLink(page, email);

  await page.goto(link);
  // The page names the account the link signs into, masked.
  const masked = `${email[0]}•••${email.split("@")[0]!.at(-1)}@${email.split("@")[1]}`;
  await expect(page.getByText(`This link signs you in as ${masked}.`)).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
  await page.getByRole("button", { name: "Continue to Dunly" }).click();
  await expect(page).toHaveURL(/\/welcome$/);

  // Same link again, from a fresh browser context: it says so at once, and offers no button.
  const other = await page.context().browser()!.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(link);
  await expect(otherPage.getByRole("alert")).toContainText("invalid, was already used, or has expired");
  await expect(otherPage.getByRole("button", { name: "Continue to Dunly" })).toHaveCount(0);
  await other.close();
});

test("a link for another account warns before it signs the current one out", async ({ page, browser }) => {
  const current = await signInByRequest(page);
  // Someone else requests a link for their own account, elsewhere, and it is opened here.
  const stranger = uniqueEmail("stranger");
  const elsewhere = await browser.newContext();
  const strangerPage = await elsewhere.newPage();
  await strangerPage.goto("/");
  await requestSignInLink(strangerPage, stranger);
  const link = await readSignInLink(strangerPage, stranger);
  await elsewhere.close();

  await page.goto(link);
  const warning = page.getByRole("alert");
  await expect(warning).toContainText(`You are signed in as ${current[0]}•••`);
  await expect(warning).toContainText("Continuing signs you out of that account first.");
  // Not pressing Continue keeps the user where they were.
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});

// Continue with Google without a Google client: tests/e2e/landing.spec.ts.

test("a signed-in user sets a password and signs in with it", async ({ page }) => {
  const email = await signInByRequest(page);
  await page.goto("/iam/info");
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Repeat new password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("correct horse battery");
  await page.getByLabel("Repeat new password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password saved.")).toBeVisible();
  // The notice of it is listed in Settings → E-mails, sent to the account's own address.
  await page.getByRole("tab", { name: "E-mails" }).click();
  const sent = page.getByRole("list", { name: "E-mails, newest first" }).getByRole("listitem");
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText("Your Dunly password was changed");
  await expect(sent).toContainText(`To ${email}`);
  await expect(sent).toContainText("Sent");

  await page.getByRole("button", { name: "Open account menu" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("link", { name: "Sign in with a password" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with a password" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong e-mail or password.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
});
