import { expect, test } from "@playwright/test";
import { addDebtor, signInByRequest, uniqueEmail } from "./helpers";

// What loads on first use rather than with the page (docs/architecture.md §11) still works, and
// works from the keyboard: the header's menus, the FAQ, the settings tabs, the date picker. (The
// landing page loads no scripts at all: tests/e2e/landing.spec.ts.)

test("the visitor's menu loads on first use and opens from the keyboard on its first item", async ({ page }) => {
  await page.goto("/sign-in/password");
  await page.waitForLoadState("networkidle");
  const trigger = page.getByRole("button", { name: "Open menu" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Home" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Sign in" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(trigger).toBeFocused();

  // The FAQ is native disclosure: Enter on a question opens its answer.
  await page.goto("/");
  await page.locator("summary", { hasText: "How can I pay?" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("By card, through Stripe's secure checkout")).toBeVisible();
});

test("settings tabs move with the arrow keys; the date picker takes over what was typed before it loaded", async ({
  page,
}) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  await addDebtor(page, "Lena Lazy", uniqueEmail("lazy"), "10");

  await page.goto("/iam/info");
  const info = page.getByRole("tab", { name: "Personal information" });
  await expect(info).toHaveAttribute("aria-selected", "true");
  await info.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("tab", { name: "Organizations" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/iam\/orgs$/);
  await expect(page.getByRole("tab", { name: "Organizations" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toHaveAccessibleName("Organizations");

  // The react-aria picker loads once the page is idle, never under the user's fingers. Its chunk is
  // held until the user is typing in the native field, then let through: nothing may be swapped
  // while they are still in it.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/date-picker-field/, async (route) => {
    await held;
    await route.continue();
  });
  const requested = page.waitForRequest(/date-picker-field/);
  const arrived = page.waitForResponse(/date-picker-field/);
  await page.goto("/schedule");
  await requested;
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
  const native = page.getByLabel("Payment Due Date");
  await native.fill("2031-05-06");
  release();
  await arrived;
  await page.waitForTimeout(300);
  await expect(native).toBeFocused();
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
  await page.getByLabel("Frequency").focus();
  await expect(page.getByRole("spinbutton", { name: /year/ })).toHaveText("2031", { timeout: 10_000 });
  const field = page.getByRole("group", { name: "Payment Due Date" }).locator("xpath=..");
  await expect(field.locator('input[name="due_date"]')).toHaveValue("2031-05-06");
});
