import { expect, type Page, test } from "@playwright/test";
import { advanceSchedules, appOrigin, inDays, mailTo, signInByRequest, uniqueEmail } from "./helpers";

/**
 * A newcomer with three clients turns autopilot on (the story): Acme Ltd (INV-101 20 days
 * overdue, INV-107 due in 10 days), Bob Smith (due today) and Carla GmbH (45 days overdue). The
 * summary says what will happen before it does; every overdue invoice is chased today at the step
 * its age calls for; the schedules list says what each next e-mail carries, and that is what arrives.
 */

async function addClient(page: Page, name: string, invoices: { amount: number; due_on: string; number: string }[]) {
  const headers = { Origin: appOrigin() };
  const [first, ...rest] = invoices;
  const email = uniqueEmail(name.split(" ")[0]!.toLowerCase());
  const res = await page.request.post("/api/debtors/add", {
    data: { full_name: name, email, debt: first!.amount, due_on: first!.due_on, invoice_number: first!.number },
    headers,
  });
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number } };
  for (const invoice of rest) {
    const added = await page.request.post("/api/invoices/add", { data: { debtor_id: data.id, ...invoice }, headers });
    expect(added.status(), await added.text()).toBe(200);
  }
  return { email, id: data.id };
}

test("a newcomer's three clients are chased at once, each at its step, after a summary; what arrives is what the list said", async ({
  page,
}) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const { email: acme, id: acmeId } = await addClient(page, "Acme Ltd", [
    { amount: 1200, due_on: await inDays(page, -20), number: "INV-101" },
    { amount: 800, due_on: await inDays(page, 10), number: "INV-107" },
  ]);
  const { email: bob } = await addClient(page, "Bob Smith", [
    { amount: 350, due_on: await inDays(page, 0), number: "INV-110" },
  ]);
  const { email: carla } = await addClient(page, "Carla GmbH", [
    { amount: 4000, due_on: await inDays(page, -45), number: "C-1" },
  ]);

  // Settings → Cadence: the default cadence is ready; autopilot is off until the user has read what it will do.
  await page.goto("/iam/cadence");
  await expect(page.getByTestId("cadence-summary")).toContainText(
    "Follows the due date: 3 days before, on the due date, 7, 14, 30 and 45 days after, at 10:00",
  );
  await expect(page.getByRole("heading", { name: "Autopilot is off" })).toBeVisible();
  await page.getByRole("link", { name: "Review and turn on autopilot" }).click();
  await expect(page.getByTestId("autopilot-summary")).toHaveText(
    /^3 debtors with 4 open invoices, 2 overdue: 3 e-mails will go out today/,
  );
  const review = page.getByRole("form", { name: "Before it starts" });
  await expect(review).toContainText("Carla GmbH: today, Final Notice for C-1");
  await expect(review).toContainText("Acme Ltd: today, Second follow up for INV-101");
  await review.getByRole("button", { name: "Turn autopilot on" }).click();
  await expect(page.getByText("Autopilot is on. 3 debtors follow your cadence.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Autopilot is on" })).toBeVisible();

  // The schedules list says what each next e-mail carries.
  await page.goto("/schedules-list");
  const rows = page.getByRole("main");
  await expect(rows).toContainText("Final Notice for C-1");
  await expect(rows).toContainText("Second follow up for INV-101");
  await expect(rows).toContainText("Initial Email for INV-110");

  // The minute's wait skipped: each arrives as the list said, once.
  await advanceSchedules(page, 60_000);
  const toCarla = await mailTo(page, carla);
  expect(toCarla.subject).toMatch(/^Final notice/);
  expect(toCarla.text).toContain("C-1");
  const toAcme = await mailTo(page, acme);
  // The second follow-up, as a first reminder: it speaks of no earlier one.
  expect(toAcme.subject).toMatch(/^Reminder: /);
  expect(toAcme.text).toContain("INV-101");
  expect(toAcme.text).toMatch(/still open/);
  expect(toAcme.text).not.toMatch(/another reminder|previous reminders|following up/i);
  const toBob = await mailTo(page, bob);
  expect(toBob.text).toContain("INV-110");
  expect(toBob.text).not.toMatch(/final notice/i);

  // Acme's next e-mail is INV-107's own step, 3 days before it is due.
  await page.goto("/schedules-list");
  await expect(rows).toContainText("Initial Email for INV-107");

  // "Don't chase" INV-107 on Acme's page (an arrangement): it is marked, and nothing is planned for Acme.
  await page.goto(`/debtors/${acmeId}`);
  await expect(page.getByTestId("next-reminder")).toContainText("Initial Email for INV-107");
  await page.getByRole("button", { name: "Don't chase invoice INV-107" }).click();
  await expect(page.getByText("Reminders leave this invoice out now, and name it apart.")).toBeVisible();
  await expect(page.getByTestId("invoice-row").filter({ hasText: "INV-107" })).toContainText("Not chased");
  await page.getByRole("button", { name: "Chase again invoice INV-107" }).click();
  await expect(page.getByText("This invoice is chased again")).toBeVisible();

  // Bob gets a cadence of his own from the debtors list's bulk actions.
  await page.goto("/debtors-list");
  await page.getByRole("checkbox", { name: "Select Bob Smith" }).check();
  await page.getByRole("link", { name: "Use another cadence" }).click();
  await expect(page.getByRole("main")).toContainText("1 debtor: Bob Smith.");
  await page.getByLabel("Days from the due date").fill("0, 14");
  await page.getByRole("button", { name: "Use this cadence for 1 debtor" }).click();
  await expect(page).toHaveURL(/\/debtors-list$/);
  await expect(page.getByText("1 debtor now follows this cadence of their own.")).toBeVisible();
});

test("the cadence tab on a phone: saved with a field error kept, then the new steps shown @phone", async ({
  page,
}, testInfo) => {
  // A phone's layout is the subject: the desktop project leaves it to the phone one.
  test.skip(testInfo.project.name !== "phone", "phone layout");
  await signInByRequest(page, { redirectTo: "/iam/cadence" });
  const steps = page.getByLabel("Days from the due date");
  await expect(steps).toHaveValue("-3, 0, 7, 14, 30, 45");
  await steps.fill("-3, soon");
  await page.getByRole("button", { name: "Save cadence" }).click();
  await expect(page.getByText(/^Enter up to 10 whole numbers of days/)).toBeVisible();
  await expect(steps).toHaveValue("-3, soon");
  await steps.fill("0, 7, 21");
  // The steps' e-mails follow what is typed: the final notice (21 days after) in the aggressive tone.
  await page.getByLabel("Tone 21 days after").selectOption("Aggressive");
  await expect(page.getByLabel("Template 7 days after")).toHaveValue("");
  await page.getByRole("radio", { name: "A reminder every few days until paid" }).check();
  await page.getByLabel("A reminder every how many days").fill("10");
  await page.getByRole("button", { name: "Save cadence" }).click();
  await expect(page.getByText("Cadence saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("cadence-summary")).toContainText(
    "the final notice goes once, then a reminder every 10 days until paid",
  );
  await expect(page.getByRole("list", { name: "Steps and their e-mails" })).toContainText(
    "21 days after: Final Notice · Aggressive",
  );
  await expect(page.getByLabel("Tone 21 days after")).toHaveValue("3");
  // Nothing is wider than the phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
