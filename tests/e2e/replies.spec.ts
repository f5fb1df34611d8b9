import { expect, test } from "@playwright/test";
import {
  addDebtorWith,
  advanceSchedules,
  appOrigin,
  debtorOption,
  inDays,
  mailTo,
  readMailbox,
  signInByRequest,
  uniqueEmail,
} from "./helpers";

// Replies come home (docs/decisions/020-inbound-replies.md): a reminder goes out with the debtor's
// reply address as Reply-To; the debtor's answer, posted to /dev/inbound as Email Routing would
// deliver it, shows on the dashboard and the timeline and holds the schedule; the user's copy is in
// the dev mailbox with Reply-To the debtor; Resume re-arms the schedule.
test("a debtor's reply reaches the user, shows on the dashboard and the timeline, holds the reminders until Resume", async ({
  page,
}) => {
  const userEmail = await signInByRequest(page, { redirectTo: "/debtors-list" });
  const name = "Rita Reply";
  const debtorEmail = uniqueEmail("reply-debtor");

  await addDebtorWith(page, name, debtorEmail, "120", { dueOn: await inDays(page, 3) });

  await page.goto("/schedule");
  await page.getByLabel("Debtor", { exact: true }).selectOption({ label: debtorOption(name, debtorEmail) });
  await page.getByLabel("Frequency").selectOption("due");
  await page.getByLabel("Send the first reminder now (in a minute), then follow the steps").check();
  await page.getByRole("button", { name: "Schedule" }).click();
  await page.waitForURL("**/schedules-list");

  // The reminder goes out; its Reply-To is the debtor's reply address on the local inbound domain.
  await advanceSchedules(page, 60_000);
  const reminder = await mailTo(page, debtorEmail);
  expect(reminder.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);

  // The debtor answers from their own mailbox (Apple Mail's shape), delivered to /dev/inbound.
  const raw = [
    `From: ${name} <${debtorEmail}>`,
    `To: ${reminder.replyTo}`,
    "Subject: Re: can we split it?",
    "Date: Tue, 24 Nov 2026 11:05:09 +0100",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    "Could we split it in two payments =E2=80=94 half now, half next month?",
    "",
  ].join("\r\n");
  const posted = await page.request.post("/dev/inbound", {
    data: raw,
    headers: { Origin: appOrigin(), "Content-Type": "message/rfc822" },
  });
  expect(posted.status(), await posted.text()).toBe(202);

  // The user's copy: to their own address, Reply-To the debtor, the reply quoted.
  const copy = await mailTo(page, userEmail);
  expect(copy.subject).toBe(`${name} replied: Re: can we split it?`);
  expect(copy.replyTo).toBe(debtorEmail);
  expect(copy.text).toContain("half now, half next month?");
  // Dunly never answers the reply itself.
  expect((await readMailbox(page)).filter((m) => m.to === debtorEmail)).toHaveLength(1);

  // The dashboard's line.
  await page.goto("/dashboard");
  const notice = page.getByTestId("debtor-responses-notice");
  await expect(
    notice.getByRole("link", { name: `${name} replied: Re: can we split it? (reminders held)` }),
  ).toBeVisible();

  // The schedule is held.
  await page.goto("/schedules-list");
  await expect(
    page.getByText(`Held: ${name} replied; handle the reply to resume reminders.`).filter({ visible: true }).first(),
  ).toBeVisible();

  // The timeline: the reply as text, held; Resume re-arms the schedule.
  await page.goto("/dashboard");
  await notice.getByRole("link", { name: new RegExp(`${name} replied`) }).click();
  await page.waitForURL(/\/debtors\/\d+$/);
  const replies = page.getByTestId("debtor-replies");
  await expect(replies).toContainText("Replied: Re: can we split it?");
  await expect(replies).toContainText("Could we split it in two payments — half now, half next month?");
  await expect(replies).toContainText("reminders held");
  await replies.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByText("Reply handled. Reminders resumed: 1 schedule runs again.").first()).toBeVisible();

  await page.goto("/schedules-list");
  await expect(page.getByText(`Held: ${name} replied`)).toHaveCount(0);
  await page.goto("/dashboard");
  await expect(page.getByText(`${name} replied`)).toHaveCount(0);
});
