import { expect, type Page, test } from "@playwright/test";
import { dateIn, zoneAtHour } from "../support/daytime-zone";
import { advanceSchedules, appOrigin, readMailbox, signInByRequest, uniqueEmail } from "./helpers";

/**
 * Text messages as a step of the cadence, as a user sets them up and a debtor meets them
 * (decisions/070): texts on for Australia, the cadence's 7- and 14-day steps sent as a text,
 * autopilot on. The due-date e-mail is ignored; a week on, the text goes (through the dev outbox,
 * as Twilio would) and is delivered; the debtor replies STOP; the 14-day step then goes by e-mail
 * only and no further text is sent; their later reply lands on their page. A week passes as the account aging a week (its invoices, runs and sends a
 * week earlier), so each step comes as the plan puts it: at 10:00 in the debtor's zone, where it is
 * 08:00 now, brought forward a little more each time (its occurrence a new one).
 */

const HOUR = 3_600_000;

/** A week (or `days`) passes for the account: POST /dev/schedules/age (development and test only). */
async function daysPass(page: Page, days: number) {
  const res = await page.request.post("/dev/schedules/age", { data: { days }, headers: { Origin: appOrigin() } });
  expect(res.status(), await res.text()).toBe(200);
}

async function textsTo(page: Page, number: string) {
  const res = await page.request.get("/dev/texts.json");
  expect(res.status()).toBe(200);
  const texts = (await res.json()) as { to: string; body: string }[];
  return texts.filter((t) => t.to === number);
}

test("an ignored e-mail escalates to a text; the debtor replies STOP and gets no further text", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/iam/texts" });
  await page.getByLabel("Send text messages").check();
  await page.getByLabel("Australia").check();
  await page.getByRole("button", { name: "Save text messages" }).click();
  await expect(page.getByText("Saved").first()).toBeVisible();

  await page.goto("/iam/cadence");
  await page.getByLabel("Channel 7 days after").selectOption({ label: "Text message" });
  await page.getByLabel("Channel 14 days after").selectOption({ label: "Text message" });
  await page.getByRole("button", { name: "Save cadence" }).click();
  const steps = page.getByRole("list", { name: "Steps and what they send" });
  await expect(steps).toContainText(/7 days after: [^·]+ · Text/);

  const zone = zoneAtHour(8);
  const email = uniqueEmail("tina");
  const number = `+61412${String(Date.now() % 1_000_000).padStart(6, "0")}`;
  const added = await page.request.post("/api/debtors/add", {
    data: {
      full_name: "Tina Texter",
      email,
      debt: 250,
      currency: "EUR",
      invoice_number: "INV-7",
      due_on: dateIn(zone),
      time_zone: zone,
      phone: number,
      text_consent: true,
    },
    headers: { Origin: appOrigin() },
  });
  expect(added.status(), await added.text()).toBe(200);
  const { data } = (await added.json()) as { data: { id: number } };

  await page.goto("/iam/cadence");
  await page.getByRole("link", { name: "Review and turn on autopilot" }).click();
  await page.getByRole("button", { name: "Turn autopilot on" }).click();
  await expect(page.getByRole("heading", { name: "Autopilot is on" })).toBeVisible();

  // The due date's e-mail goes, and is ignored.
  await advanceSchedules(page, 3 * HOUR);
  await expect.poll(async () => (await readMailbox(page)).filter((m) => m.to === email).length).toBe(1);
  expect(await textsTo(page, number)).toEqual([]);

  // A week on: the 7-day step is a text, with what is owed, how late, and the debtor's page.
  await daysPass(page, 7);
  await advanceSchedules(page, 2.5 * HOUR);
  await expect.poll(async () => (await textsTo(page, number)).length).toBe(1);
  const [text] = await textsTo(page, number);
  expect(text!.body).toMatch(/€250\.00 is 7 days overdue\./);
  expect(text!.body).toMatch(/Reply STOP to opt out\.$/);
  expect((await readMailbox(page)).filter((m) => m.to === email)).toHaveLength(1);
  const link = /https?:\/\/\S+\/t\/\S+/.exec(text!.body)?.[0];
  expect(link, "a short link to the debtor's page").toBeTruthy();
  const portal = await page.request.get(link!.replace(/^https?:\/\/[^/]+/, ""), { maxRedirects: 0 });
  expect(portal.status()).toBe(302);
  expect(portal.headers().location).toMatch(/\/d\//);

  // Twilio's delivery report, from the dev outbox's button: the debtor's timeline says it arrived.
  await page.goto("/dev/texts");
  const outbox = page.getByTestId("dev-text").filter({ hasText: `To ${number}` });
  await outbox.getByRole("button", { name: `Deliver: the text to ${number}` }).click();
  await expect(outbox.getByTestId("dev-text-status")).toHaveText("delivered");
  await page.goto(`/debtors/${data.id}`);
  await expect(page.getByText("Text message sent").first()).toBeVisible();
  await expect(page.getByText(`${number} · Delivered`)).toBeVisible();

  // The debtor texts STOP, from the dev outbox as Twilio would deliver it.
  await page.goto("/dev/texts");
  await outbox.getByRole("button", { name: `Reply STOP from ${number}` }).click();
  await page.goto(`/debtors/${data.id}`);
  await expect(page.getByText("Texted STOP: no more text messages").first()).toBeVisible();

  // Another week: the 14-day step goes by e-mail only; no further text.
  await daysPass(page, 7);
  await advanceSchedules(page, 2 * HOUR);
  await expect.poll(async () => (await readMailbox(page)).filter((m) => m.to === email).length).toBe(2);
  expect(await textsTo(page, number)).toHaveLength(1);

  // Any other text back is a reply: on the debtor's page, holding their reminders.
  await page.goto("/dev/texts");
  await outbox.getByLabel(`Reply as ${number}`).fill("Can I pay on Friday?");
  await outbox.getByRole("button", { name: "Send reply" }).click();
  await page.goto(`/debtors/${data.id}`);
  const replies = page.getByTestId("debtor-replies");
  await expect(replies).toContainText("Text message");
  await expect(replies).toContainText("Can I pay on Friday?");
});
