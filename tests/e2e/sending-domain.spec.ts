import { expect, test } from "@playwright/test";
import { addDebtorByApi, mailTo, resendTo, signInByRequest } from "./helpers";

/**
 * Sending from the user's own domain (docs/decisions/059-sending-domains.md): Dunly's own domain is
 * refused with what was typed kept; the domain's DNS records are shown and copied from the keyboard;
 * verified on the local stand-in of Resend's Domains API (/dev/resend/domains), the tab reads
 * Verified and the next reminder goes from the user's domain.
 */
test("sending domain: add it, copy its records, verify it on the stand-in, and reminders go from it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInByRequest(page, { redirectTo: "/iam/domain" });
  await expect(page.getByRole("tab", { name: /Sending domain|Domain/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("sending-from")).toContainText("Dunly's address");

  const field = page.getByLabel("Your domain", { exact: true });
  await field.fill("Mail.Dunly.app");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText("This is Dunly's own domain: please enter your business's domain")).toBeVisible();
  await expect(field).toHaveValue("Mail.Dunly.app");

  const domain = `acme-${Date.now().toString(36)}.example.com`;
  await field.fill(domain);
  await page.getByLabel("Send as (the name before the @)").fill("accounts");
  await page.getByRole("button", { name: "Add domain" }).click();
  const records = page.getByTestId("dns-records");
  await expect(records).toContainText("resend._domainkey");
  await expect(page.getByTestId("dns-record")).toHaveCount(3);
  await expect(page.getByTestId("domain-status")).toHaveText("Not verified yet");
  await expect(page.getByTestId("sending-from")).toContainText("Dunly's address, until your domain is verified.");

  // Copied from the keyboard: the DKIM value, whole.
  const dkim = page.getByTestId("dns-record").filter({ hasText: "DKIM" });
  const value = (await dkim.getByTestId("dns-value").textContent()) ?? "";
  const copy = dkim.getByRole("button", { name: /^Copy the value of/ });
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(dkim.getByRole("button", { name: /^the value of .* copied$/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

  // Not yet found: still not verified.
  await page.getByRole("button", { name: "Check verification" }).click();
  await expect(page.getByTestId("domain-answer")).toContainText("is not verified yet");

  // Resend (its stand-in) finds the records.
  await page.getByRole("link", { name: "the stand-in's page" }).click();
  await expect(page).toHaveURL(/\/dev\/resend\/domains$/);
  const entry = page.getByTestId("standin-domain").filter({ hasText: domain });
  await entry.getByRole("button", { name: `Verify ${domain}` }).click();
  await expect(entry.getByTestId("standin-status")).toHaveText("verified");

  await page.goto("/iam/domain");
  await page.getByRole("button", { name: "Check verification" }).click();
  await expect(page.getByTestId("domain-answer")).toHaveText(`${domain} is verified: your e-mails go from it now.`);
  await expect(page.getByTestId("domain-status")).toHaveText("Verified");
  await expect(page.getByTestId("sending-from")).toContainText(`<accounts@${domain}>`);

  // The next reminder goes from it.
  const { email } = await addDebtorByApi(page, "Domain Debtor");
  await page.goto("/debtors-list");
  await resendTo(page, "Domain Debtor");
  const mail = await mailTo(page, email);
  expect(mail.from).toContain(`<accounts@${domain}>`);

  // Removed: back to Dunly's address.
  await page.goto("/iam/domain");
  await page.getByRole("button", { name: `Remove domain ${domain}` }).click();
  await expect(page.getByRole("heading", { name: "Add your domain" })).toBeVisible();
  await expect(page.getByTestId("sending-from")).not.toContainText(domain);
});
