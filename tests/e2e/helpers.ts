import { expect, type Page, test } from "@playwright/test";
import { daytimeZone } from "../support/daytime-zone";
import type { MailboxMessage } from "../support/email-fixtures";

/** The origin the app is served on in this run (playwright.config.ts chooses its port). */
export function appOrigin() {
  return new URL(test.info().project.use.baseURL!).origin;
}

/** `text` as a regular expression that matches it literally. */
export function literal(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Everything in the dev mailbox, newest first. */
export async function readMailbox(page: Page) {
  return (await (await page.request.get("/dev/mailbox.json")).json()) as MailboxMessage[];
}

/** Waits for the dev mailbox to hold a message to `to` and returns the newest. */
export async function mailTo(page: Page, to: string, timeout = 20_000) {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await readMailbox(page)).find((m) => m.to === to);
        return Boolean(found);
      },
      { timeout, intervals: [500, 1000] },
    )
    .toBe(true);
  return found!;
}

/**
 * Waits until the page has settled: the network idle, then 1 s more and idle again. What a page
 * fetches when it is idle (an idle callback, a timer after load) starts within milliseconds of a
 * quiet page, long before networkidle's 500 ms, so this is enough to see that nothing more comes.
 */
export async function idle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1_000);
  await page.waitForLoadState("networkidle");
}

/** Adds a debtor through the 'Add a new debtor' modal of the current page (dashboard or list). */
export async function addDebtor(page: Page, name: string, email: string, debt: string, strategy = "1") {
  await page.getByRole("button", { name: "Add Debtor" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a new debtor" });
  await dialog.getByLabel("Full Name").fill(name);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Amount of debt").fill(debt);
  await dialog.getByLabel("Strategy").selectOption(strategy);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Debtor added").first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** What "Add a new debtor" may say besides the name, e-mail and debt; left empty when not given. */
export interface DebtorExtras {
  currency?: string;
  invoiceNumber?: string;
  dueOn?: string;
}

/** Adds a debtor through "Add a new debtor" on the current page, with the strategy left as it is. */
export async function addDebtorWith(page: Page, name: string, email: string, debt: string, extras: DebtorExtras = {}) {
  await page.getByRole("button", { name: "Add Debtor" }).click();
  const add = page.getByRole("dialog", { name: "Add a new debtor" });
  await add.getByLabel("Full Name").fill(name);
  await add.getByLabel("Email").fill(email);
  await add.getByLabel("Amount of debt").fill(debt);
  if (extras.currency) await add.getByLabel("Currency").selectOption(extras.currency);
  if (extras.invoiceNumber) await add.getByLabel("Invoice number (optional)").fill(extras.invoiceNumber);
  if (extras.dueOn) await add.getByLabel("Due date (optional)").fill(extras.dueOn);
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Debtor added").first()).toBeVisible();
  await expect(add).toBeHidden();
}

/** "Re-send reminders" to the debtor `name` from the debtors list: one reminder goes out at once. */
export async function resendTo(page: Page, name: string) {
  await page
    .getByRole("checkbox", { name: `Select ${name}`, exact: true })
    .filter({ visible: true })
    .check();
  await page.getByRole("button", { name: "Re-send reminders" }).click();
  await expect(page.getByText("Emails sending rescheduled.")).toBeVisible();
}

/**
 * A debtor as the schedule form's select names it: name, e-mail and open invoices, so two debtors
 * of one name can be told apart.
 */
export function debtorOption(name: string, email: string, openInvoices = 1) {
  const open =
    openInvoices === 0 ? "no open invoices" : openInvoices === 1 ? "1 open invoice" : `${openInvoices} open invoices`;
  return `${name} — ${email} · ${open}`;
}

/** Signs `email` in the way a person does: the form, the e-mailed link, "Continue to Dunly", /welcome. */
export async function signInThroughLink(page: Page, email: string) {
  await requestSignInLink(page, email);
  await page.goto(await readSignInLink(page, email));
  await page.getByRole("button", { name: "Continue to Dunly" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
}

/** Asks the page's sign-in form for a magic link to `email` and waits for "Please Check your email…". */
export async function requestSignInLink(page: Page, email: string) {
  await page.getByPlaceholder("Your Email").fill(email);
  await page.getByRole("button", { name: "Get magic link" }).click();
  await expect(page.getByText("Please Check your email for the sign in link")).toBeVisible();
}

/** Submits `typed`, which is no address, from the page's sign-in form: the field error shows and what was typed stays. */
export async function expectAddressRefused(page: Page, typed: string) {
  await page.getByPlaceholder("Your Email").fill(typed);
  await page.getByRole("button", { name: "Get magic link" }).click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await expect(page.getByPlaceholder("Your Email")).toHaveValue(typed);
}

/** Each test signs in as its own new user, so tests never see each other's data. */
export function uniqueEmail(prefix = "user") {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Reads the newest sign-in link for `email` from the dev mailbox (JSON), waiting for it to arrive. */
export async function readSignInLink(page: Page, email: string) {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const message = (await readMailbox(page)).find((m) => m.to === email);
        link = message?.text.match(/https?:\/\/\S+\/auth\/verify\?token=[a-z0-9]+/)?.[0];
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}

/**
 * Signs a user in by magic link through the real form and returns the e-mail: on the landing page
 * (with ?redirectTo= when given), or with `onCurrentPage` on the page already open (a /404 page).
 * For the tests about signing in; the others use `signInByRequest`.
 */
export async function signIn(
  page: Page,
  {
    email = uniqueEmail(),
    redirectTo,
    onCurrentPage = false,
  }: { email?: string; redirectTo?: string; onCurrentPage?: boolean } = {},
) {
  if (!onCurrentPage) await page.goto(redirectTo ? `/?redirectTo=${encodeURIComponent(redirectTo)}` : "/");
  await requestSignInLink(page, email);
  await page.goto(await readSignInLink(page, email));
  await page.getByRole("button", { name: "Continue to Dunly" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/verify"));
  return email;
}

/**
 * Signs a new user in with the requests the sign-in form and the verify page make, without
 * rendering those pages (they have their own tests: auth.spec.ts, no-javascript.spec.ts, csp.spec.ts):
 * the magic-link request (POST /?index), the link from the dev mailbox, its POST /auth/verify.
 * The session cookie lands in the page's browser context, with the `tz` cookie the pages' boot
 * script would have set (app/platform/theme.ts), then `redirectTo` opens. Returns the e-mail.
 */
export async function signInByRequest(page: Page, { email = uniqueEmail(), redirectTo = "/welcome" } = {}) {
  await signInRequests(page, { email, origin: appOrigin(), timezoneId: test.info().project.use.timezoneId });
  await page.goto(redirectTo);
  return email;
}

/**
 * The requests of `signInByRequest`, without opening a page after them: also for a worker's shared
 * account (tests/e2e/fixtures.ts), made before any test, where `test.info()` does not answer.
 */
export async function signInRequests(
  page: Page,
  { email, origin, timezoneId }: { email: string; origin: string; timezoneId?: string },
) {
  // The app refuses a form post from another origin, as a browser's would be.
  const headers = { Origin: origin };
  const asked = await page.request.post("/?index", { form: { email }, headers });
  expect(asked.status(), "the magic-link request").toBe(200);
  const link = new URL(await readSignInLink(page, email));
  const verified = await page.request.post(`${link.pathname}${link.search}`, {
    form: { token: link.searchParams.get("token")! },
    headers,
    maxRedirects: 0,
  });
  expect(verified.status(), "the sign-in link's POST").toBe(302);
  if (timezoneId) await page.context().addCookies([{ name: "tz", value: encodeURIComponent(timezoneId), url: origin }]);
}

/** A schedule moved by `advanceSchedules`: when it was made, its next run before and after. */
export interface AdvancedSchedule {
  id: string;
  createdAt: number;
  nextRunAt: number;
  movedTo: number;
}

/**
 * Skips `ms` of waiting for the signed-in user's enabled schedules instead of waiting for the real
 * time: POST /dev/schedules/advance (workers/dev.ts; development and test only) moves each next run `ms` earlier and re-arms its alarm, so what is due within `ms` is sent
 * now by the real alarm, engine, mail queue and mail Worker. Another user's schedules are untouched.
 */
export async function advanceSchedules(page: Page, ms: number) {
  const res = await page.request.post("/dev/schedules/advance", { data: { ms }, headers: { Origin: appOrigin() } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as AdvancedSchedule[];
}

/** "YYYY-MM-DD" `days` after the browser's today (its own time zone). */
export async function inDays(page: Page, days: number) {
  return page.evaluate((n) => {
    const d = new Date();
    d.setDate(d.getDate() + n);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  }, days);
}

/**
 * A debtor added through the JSON API, as the user's session (not the subject of the test): one
 * invoice of `debt` in `currency`, numbered, due `dueInDays` from the browser's today, in a zone
 * where it is daytime now. Returns the debtor's id and address.
 */
export async function addDebtorByApi(
  page: Page,
  name: string,
  { debt = 1200, currency = "EUR", invoiceNumber = "INV-101", dueInDays = -20 } = {},
) {
  const email = uniqueEmail(name.split(" ")[0]!.toLowerCase());
  const res = await page.request.post("/api/debtors/add", {
    data: {
      full_name: name,
      email,
      debt,
      currency,
      invoice_number: invoiceNumber,
      due_on: await inDays(page, dueInDays),
      time_zone: daytimeZone(),
    },
    headers: { Origin: appOrigin() },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number } };
  return { id: data.id, email };
}
