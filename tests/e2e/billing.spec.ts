import { expect, test } from "@playwright/test";
import { signInByRequest } from "./helpers";

/**
 * Dunly's own plans (docs/decisions/019) end to end: a user on the trial subscribes to Aggressive on
 * /pricing, completes the local Stripe stand-in's Checkout at /dev/checkout (which delivers Stripe's
 * signed events to the billing webhook), and Settings → Subscription shows the plan.
 */
test("a user subscribes to Aggressive on /pricing through /dev/checkout and Settings shows it", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/pricing" });
  await expect(page.getByText("Every new account starts with a 14-day free trial of Medium.")).toBeVisible();
  const aggressive = page.getByRole("article", { name: "Aggressive" });
  await expect(aggressive.getByText("Up to 2,000 debtors")).toBeVisible();

  await aggressive.getByRole("button", { name: "Subscribe to Aggressive" }).click();
  await expect(page).toHaveURL(/\/dev\/checkout\/checkout\/cs_test_sub_/);
  await expect(page.getByRole("heading", { name: "Checkout (local stand-in)" })).toBeVisible();
  await page.getByRole("button", { name: "Subscribe (card)" }).click();

  await expect(page).toHaveURL(/\/iam\/subscription\?checkout=done$/);
  await expect(page.getByText("Thank you — you are on the Aggressive plan.")).toBeVisible();
  await expect(page.getByTestId("subscription-plan")).toContainText("Aggressive");
  await expect(page.getByTestId("subscription-status")).toHaveText("Active");
  await expect(page.getByTestId("subscription-period")).toBeVisible();
  await expect(page.getByRole("button", { name: "Manage billing" })).toBeVisible();

  // /pricing marks it as the plan, with nothing to buy on its card.
  await page.goto("/pricing");
  await expect(page.getByRole("article", { name: "Aggressive" }).getByText("You are on this plan.")).toBeVisible();
});
