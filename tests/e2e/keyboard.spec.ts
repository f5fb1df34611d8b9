import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addDebtor, signInByRequest } from "./helpers";

// The keyboard never loses its place. Dialogs open on their first field and give the
// focus back to what opened them; a popup inside a dialog closes alone on Escape; inline forms
// cancel on Escape; every menu item can be reached; the period select does not reload per arrow.

async function focusedName(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "<body>";
    return el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName;
  });
}

test("dialogs open on their first field and give the focus back on Escape and ×", async ({ page, signInShared }) => {
  await signInShared("/debtors-list");
  await addDebtor(page, "Kay Keys", "kay@example.com", "50", "1");

  const addButton = page.getByRole("button", { name: "Add Debtor" });
  await addButton.focus();
  await page.keyboard.press("Enter");
  const add = page.getByRole("dialog", { name: "Add a new debtor" });
  await expect(add.getByLabel("Full Name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(add).toBeHidden();
  await expect(addButton).toBeFocused();

  const configureButton = page.getByRole("button", { name: "Configure Kay Keys" });
  await configureButton.focus();
  await page.keyboard.press("Enter");
  const configure = page.getByRole("dialog").first();
  await expect(configure).toBeVisible();
  await configure.getByRole("button", { name: "Close" }).click();
  await expect(configure).toBeHidden();
  await expect(configureButton).toBeFocused();
});

test("Escape in the date picker inside the schedule's edit modal closes the picker alone; the edits stay", async ({
  page,
}) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  await addDebtor(page, "Dana Date", "dana@example.com", "70", "1");
  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);

  const opener = page.getByRole("button", { name: /^Configure / }).first();
  await opener.click();
  const modal = page.getByRole("dialog", { name: "Configure schedule" });
  await modal.getByRole("button", { name: "Edit" }).click();
  await modal.getByLabel("Frequency").selectOption({ label: "Weekly on Monday at 10:00" });
  await modal.getByRole("button", { name: "Open calendar" }).click();
  const calendar = page.getByRole("grid");
  await expect(calendar).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(calendar).toBeHidden();
  await expect(modal).toBeVisible();
  await expect(modal.getByLabel("Frequency")).toHaveValue("weekly");
  // The next Escape closes the modal, and the focus is back on the row's Configure button.
  await modal.getByLabel("Frequency").focus();
  await page.keyboard.press("Escape");
  await expect(modal).toBeHidden();
  await expect(opener).toBeFocused();
});

test("Edit name, Edit org and Add Organization: open on their field, Escape cancels, the focus comes back", async ({
  page,
  signInShared,
}) => {
  await signInShared("/iam/info");
  const editName = page.getByRole("button", { name: "Edit name" });
  await editName.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Full Name")).toBeFocused();
  await page.keyboard.type("Not kept");
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Full Name")).toBeHidden();
  await expect(editName).toBeFocused();

  await page.goto("/iam/orgs");
  const addOrg = page.getByRole("button", { name: "Add Organization" });
  await addOrg.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Company Name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Company Name")).toBeHidden();
  await expect(addOrg).toBeFocused();

  await addOrg.click();
  await page.getByLabel("Company Name").fill("Keyboard Ltd");
  await page.getByLabel("Company Address").fill("2 Tab Road");
  await page.getByRole("button", { name: "Save" }).click();
  const editOrg = page.getByRole("button", { name: "Edit Keyboard Ltd" });
  await expect(editOrg).toBeVisible();
  await expect(addOrg).toBeFocused();
  await editOrg.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Company Name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(editOrg).toBeFocused();
});

// On the pages that hydrate; the landing page's own menu is a disclosure (tests/e2e/landing.spec.ts).
// The menu's code is loaded on first use: the first key opens it.
test("the visitor menu opens from the keyboard on its first item; its theme item is reached with the arrows and switches the theme", async ({
  page,
}) => {
  await page.goto("/sign-in/password");
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Open menu" }).focus();
  await page.keyboard.press("Enter");
  const item = page.getByRole("menuitemcheckbox", { name: "Light theme" });
  await expect(page.getByRole("menuitem", { name: "Home" })).toBeFocused();
  for (const next of [
    page.getByRole("menuitem", { name: "Sign in" }),
    page.getByRole("menuitem", { name: "Pricing" }),
    page.getByRole("menuitem", { name: "FAQ" }),
    item,
  ]) {
    await page.keyboard.press("ArrowDown");
    await expect(next).toBeFocused();
  }
  await page.keyboard.press("Enter");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect(item).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
});

test("the period select browses with the arrows without reloading; Enter chooses", async ({ page, signInShared }) => {
  await signInShared("/schedules-list");
  const period = page.getByLabel("Period");
  await period.focus();
  let navigations = 0;
  page.on("request", (request) => {
    if (request.isNavigationRequest() || request.url().includes(".data")) navigations += 1;
  });
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.waitForTimeout(700);
  expect(navigations).toBe(0);
  expect(page.url()).not.toContain("period=");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/period=/);
  expect(await focusedName(page)).not.toBe("<body>");
});
