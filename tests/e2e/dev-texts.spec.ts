import { expect, test } from "@playwright/test";
import { addDebtorByApi, signInByRequest } from "./helpers";

/**
 * The dev outbox of text messages (decisions/068), clicked through as a person would: a test text
 * to a debtor through the same client as a reminder's, Twilio's delivery report from its button, the
 * debtor's reply (on their page, holding reminders), then their STOP: the number opted out at once,
 * the timeline says so, and the next text to it is refused with why, what was typed kept.
 */
test("dev texts: send, deliver, the debtor replies, then STOP ends texts to the number", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  const name = "Tom Texter";
  const { id } = await addDebtorByApi(page, name);
  const number = `+4477009${String(Date.now() % 100_000).padStart(5, "0")}`;

  await page.goto("/dev/texts");
  await page.getByLabel("Debtor").selectOption({ label: name });
  await page.getByLabel("Number (E.164, such as +447700900123)").fill(number);
  await page.getByLabel("Message", { exact: true }).fill("You owe €1,200.00, 20 days overdue.");
  await page.getByRole("button", { name: "Send test text" }).click();
  await expect(page).toHaveURL(/\/dev\/texts$/);
  const text = page.getByTestId("dev-text").filter({ hasText: `To ${number}` });
  await expect(text.getByTestId("dev-text-body")).toHaveText("You owe €1,200.00, 20 days overdue.");
  await expect(text.getByTestId("dev-text-status")).toHaveText("queued");

  await text.getByRole("button", { name: `Deliver: the text to ${number}` }).click();
  await expect(text.getByTestId("dev-text-status")).toHaveText("delivered");

  await text.getByLabel(`Reply as ${number}`).fill("Can I pay on Friday?");
  await text.getByRole("button", { name: "Send reply" }).click();
  await page.goto(`/debtors/${id}`);
  const replies = page.getByTestId("debtor-replies");
  await expect(replies).toContainText("Text message");
  await expect(replies).toContainText("Can I pay on Friday?");

  await page.goto("/dev/texts");
  await text.getByRole("button", { name: `Reply STOP from ${number}` }).click();
  await page.goto(`/debtors/${id}`);
  await expect(page.getByText("Texted STOP: no more text messages").first()).toBeVisible();

  // The next text to the number is refused where it would leave; the form keeps what was typed.
  await page.goto("/dev/texts");
  await page.getByLabel("Debtor").selectOption({ label: name });
  await page.getByLabel("Number (E.164, such as +447700900123)").fill(number);
  await page.getByLabel("Message", { exact: true }).fill("One more?");
  await page.getByRole("button", { name: "Send test text" }).click();
  await expect(page.getByRole("alert")).toHaveText("The number replied STOP: no more texts to it");
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("One more?");
  await expect(page.getByLabel("Number (E.164, such as +447700900123)")).toHaveValue(number);
});
