import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { addDebtorByApi, mailTo, resendTo, signInByRequest } from "./helpers";

/**
 * The user's brand (docs/decisions/058): Settings → Brand refuses a malformed colour (what was typed
 * kept), says a pale one is adjusted and shows the colours used, keeps "Powered by Dunly" for plans
 * below the top one, takes a logo; the reminder and the debtor's page then carry them, the page with
 * no link to Dunly's landing page. At desktop and phone widths.
 */
/** axe in both themes: no serious or critical violation (the sweep's bar), the user's accent included. */
async function axeBothThemes(page: Page, where: string) {
  for (const theme of ["dracula", "light"]) {
    await page.evaluate(async (t) => {
      document.documentElement.dataset.theme = t;
      document.body.getBoundingClientRect();
      const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
      await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
    }, theme);
    const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${where} (${theme})`,
    ).toEqual([]);
  }
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

test("the Brand tab: colour, signature, logo and Powered by Dunly; the reminder and the debtor's page carry them @phone", async ({
  page,
}, testInfo) => {
  // The tab's phone layout is in the sweep (fits the screen, axe in both themes); the journey at one width.
  test.skip(testInfo.project.name !== "phone", "phone layout");
  await signInByRequest(page, { redirectTo: "/iam/brand" });
  await expect(page.getByRole("tab", { name: /Brand/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Your brand" })).toBeVisible();

  const accent = page.getByRole("textbox", { name: "Accent colour", exact: true });
  await accent.fill("blue");
  await page.getByRole("button", { name: "Save brand" }).click();
  await expect(page.getByText(/six hexadecimal digits/).first()).toBeVisible();
  await expect(accent).toHaveValue("blue");

  await accent.fill("#ffd400");
  await expect(page.getByTestId("accent-adjusted")).toContainText("too little contrast on white");
  await page.getByLabel("E-mail signature").fill("Jane Doe\nHead of accounts");
  // The trial's plan cannot remove it: the box is disabled, the reason and the plans beside it.
  await expect(page.getByRole("checkbox", { name: /Powered by Dunly/ })).toBeDisabled();
  await expect(page.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/pricing");
  await page.getByRole("button", { name: "Save brand" }).click();
  await expect(page.getByText("Brand saved.")).toBeVisible();

  await page.getByLabel("Choose a logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByTestId("logo-status")).toContainText("Logo saved");
  await expect(page.getByTestId("brand-logo")).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove logo" })).toBeVisible();
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeBothThemes(page, "the Brand tab with an adjusted colour");

  // Reloaded: what was saved is what the form shows.
  await page.reload();
  await expect(accent).toHaveValue("#ffd400");
  await expect(page.getByLabel("E-mail signature")).toHaveValue("Jane Doe\nHead of accounts");

  const name = "Brand Kunde";
  const { email } = await addDebtorByApi(page, name);
  await page.goto("/debtors-list");
  await resendTo(page, name);
  const mail = await mailTo(page, email);
  expect(mail.html).toMatch(/src="[^"]+\/logos\/[a-z0-9]+"/);
  expect(mail.text).toContain("Head of accounts");
  expect(mail.text).toContain("Powered by Dunly");

  const portal = /<a [^>]*href="([^"]+\/d\/[^"]+)"[^>]*>/.exec(mail.html)?.[1];
  expect(portal).toBeTruthy();
  await page.goto(portal!);
  await expect(page.getByTestId("debtor-brand")).toBeVisible();
  await expect(page.getByTestId("powered-by")).toHaveText("Powered by Dunly");
  expect(await page.locator('a[href="/"]').count()).toBe(0);
  // The theme switch without Dunly's menu: a form that comes back to this page.
  await page.getByRole("button", { name: "Light theme", pressed: false }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect(page.getByTestId("debtor-brand")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeBothThemes(page, "the debtor's page in the user's colours");
});
