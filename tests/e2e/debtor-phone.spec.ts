import { expect, test } from "@playwright/test";
import { signInByRequest, uniqueEmail } from "./helpers";

// A debtor's mobile and the consent to text it (decisions/069): a landline is refused with why and
// what was typed stays; a mobile with the box ticked is saved and shown on the debtor's page. At the
// desktop's width only: the form's fit at 360 px is the accessibility sweep's (every modal).
test("a debtor's mobile: a landline refused with what was typed kept, a mobile saved with consent", async ({
  page,
}) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  await page.getByRole("button", { name: "Add Debtor" }).click();
  const add = page.getByRole("dialog", { name: "Add a new debtor" });
  await add.getByLabel("Full Name").fill("Acme Mobile Ltd");
  await add.getByLabel("Email").fill(uniqueEmail("acme-mobile"));
  await add.getByLabel("Amount of debt").fill("120");
  await add.getByLabel("Mobile number (optional)").fill("+44 20 7946 0018");
  await add.getByLabel("I may text this debtor").check();
  await add.getByRole("button", { name: "Save" }).click();
  await expect(add.getByText("This is not a mobile number")).toBeVisible();
  await expect(add.getByLabel("Mobile number (optional)")).toHaveValue("+44 20 7946 0018");
  await expect(add.getByLabel("Full Name")).toHaveValue("Acme Mobile Ltd");

  await add.getByLabel("Mobile number (optional)").fill("+44 7400 123456");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Debtor added").first()).toBeVisible();
  await expect(add).toBeHidden();

  const listed = await page.request.get("/api/debtors");
  expect(listed.status()).toBe(200);
  const debtors = (await listed.json()) as { id: number; full_name: string; phone: string | null }[];
  const added = debtors.find((d) => d.full_name === "Acme Mobile Ltd");
  expect(added?.phone).toBe("+447400123456");
  await page.goto(`/debtors/${added?.id}`);
  await expect(page.getByTestId("debtor-phone")).toHaveText("Mobile +447400123456 · you may text them");
});
