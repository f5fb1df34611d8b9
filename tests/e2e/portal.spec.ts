import { expect, type Page, test } from "@playwright/test";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { addDays } from "../../app/domain/promise";
import { daytimeZone } from "../support/daytime-zone";
import { germanDebtorLinks } from "./debtor-language";
import { appOrigin, literal, readMailbox, resendTo, signInByRequest, uniqueEmail } from "./helpers";

/** A JSON API call as the signed-in user (same origin, the session cookie of the page's context). */
async function api(page: Page, method: "POST" | "PUT", path: string, data: Record<string, unknown>) {
  const res = await page.request.fetch(`/api${path}`, { method, data, headers: { Origin: appOrigin() } });
  expect(res.status(), `${method} ${path}`).toBe(200);
  return (await res.json()) as { data: { id: number } };
}

/** The calendar date `days` after today in UTC, "YYYY-MM-DD" (far enough from the edges of the promise window). */
function daysFromNow(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

test("a debtor with two invoices gets one statement, promises to pay from their page, and the user sees the reminders held until then @phone", async ({
  page,
  browser,
}, testInfo) => {
  // The debtor's pages are read on a phone: the journey runs there; their desktop layout is the
  // accessibility sweep's (CI time, docs/decisions/044).
  test.skip(testInfo.project.name !== "phone", "a debtor's journey: phone only");
  await signInByRequest(page, { redirectTo: "/debtors-list" });

  // A debtor owing two invoices, in a zone where it is daytime now (quiet hours are theirs).
  const name = "Petra Promise";
  const debtorEmail = uniqueEmail("portal-debtor");
  const added = await api(page, "POST", "/debtors/add", {
    full_name: name,
    email: debtorEmail,
    debt: 300,
    invoice_number: "INV-101",
    due_on: daysFromNow(-20),
    time_zone: daytimeZone(),
  });
  const debtorId = added.data.id;
  await api(page, "POST", "/invoices/add", {
    debtor_id: debtorId,
    number: "INV-102",
    amount: 200,
    due_on: daysFromNow(10),
  });

  // A weekly schedule for them, and one reminder at once (Re-send).
  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption(String(debtorId));
  await page.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await page.getByLabel("Frequency").selectOption({ label: "Weekly on Monday at 10:00" });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);
  await page.goto("/debtors-list");
  await resendTo(page, name);

  // One e-mail, listing both invoices and the total.
  let mails: Awaited<ReturnType<typeof readMailbox>> = [];
  await expect
    .poll(
      async () => {
        mails = (await readMailbox(page)).filter((m) => m.to === debtorEmail);
        return mails.length;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  const mail = mails[0]!;
  expect(mail.text).toContain("INV-101");
  expect(mail.text).toContain("INV-102");
  expect(mail.text).toMatch(/\$500\.00/);
  const portalLink = /<a [^>]*href="([^"]+\/d\/[^"]+)"[^>]*>/.exec(mail.html)?.[1];
  expect(portalLink, "the debtor's page in the e-mail").toMatch(
    new RegExp(`^${literal(appOrigin())}/d/[0-9a-f]{32}\\.[\\w-]{43}$`),
  );

  // The debtor opens their page in their own browser, without a session, and promises a date.
  const promised = daysFromNow(10);
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const debtorContext = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor });
  try {
    const debtorPage = await debtorContext.newPage();
    await debtorPage.goto(portalLink!);
    const main = debtorPage.getByRole("main");
    await expect(main.getByText("INV-101").first()).toBeVisible();
    await expect(main.getByText("INV-102").first()).toBeVisible();
    await main.getByLabel("I will pay by").fill(promised);
    await main.getByRole("button", { name: "Promise to pay" }).click();
    await expect(debtorPage.getByRole("status").first()).toContainText(
      `will pay by ${formatDate(promised)}. Reminders are paused until then.`,
    );
  } finally {
    await debtorContext.close();
  }

  // The user's dashboard says so.
  await page.goto("/dashboard");
  await expect(page.getByText(`${name} promised to pay by ${formatDate(promised)}`).first()).toBeVisible();

  // The schedule is held until that date.
  await page.goto("/schedules-list");
  const after = formatDate(addDays(promised, 1)!);
  await expect(
    page.getByText(`Held: ${name} promised to pay by ${formatDate(promised)}; reminders resume on ${after}.`).first(),
  ).toBeVisible();

  // The timeline tells it too.
  await page.goto(`/debtors/${debtorId}`);
  await expect(
    page
      .getByRole("main")
      .getByText(`Promised to pay by ${formatDate(promised)}`)
      .first(),
  ).toBeVisible();
});

test("a German debtor reads their page in German on a phone, and promises to pay in German @phone", async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "a debtor's journey: phone only");
  const links = await germanDebtorLinks(page);
  const promised = daysFromNow(10);
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const debtorContext = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor });
  try {
    const debtorPage = await debtorContext.newPage();
    // The browser writes the page as the server did: no hydration error, nothing else failing.
    const errors: string[] = [];
    debtorPage.on("pageerror", (error) => errors.push(error.message));
    debtorPage.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await debtorPage.goto(links.portal);
    await debtorPage.waitForFunction(() => "__reactRouterRouteModules" in window);
    await debtorPage.waitForLoadState("networkidle");
    await expect(debtorPage.locator("html")).toHaveAttribute("lang", "de");
    await expect(debtorPage).toHaveTitle(/^Ihre Kontoübersicht · user-/);
    const main = debtorPage.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(/^Ihre Kontoübersicht bei /);
    await expect(main.getByRole("heading", { name: "Offene Rechnungen" })).toBeVisible();
    await expect(main.getByTestId("portal-total")).toHaveText(
      `Noch offen insgesamt: ${formatMoney(123456, "EUR", "de-DE")}`,
    );
    // Nothing wider than the phone.
    expect(
      await debtorPage.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
    ).toBe(true);

    await main.getByLabel("Ich bezahle bis zum").fill(promised);
    await main.getByRole("button", { name: "Zahlung zusagen" }).click();
    await expect(debtorPage.getByRole("status").first()).toContainText(
      `bis zum ${formatDate(promised, "de-DE")} bezahlen. Bis dahin ruhen die Erinnerungen.`,
    );
    await expect(
      main.getByText(`Sie haben zugesagt, bis zum ${formatDate(promised, "de-DE")} zu bezahlen.`),
    ).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await debtorContext.close();
  }
});
