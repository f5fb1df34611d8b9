import { expect, test } from "./fixtures";
import { addDebtor, idle, uniqueEmail } from "./helpers";

// What loads on first use rather than with the page still works, and
// works from the keyboard: the header's menus, the FAQ, the settings tabs, the date picker. (The
// landing page loads no scripts at all: tests/e2e/landing.spec.ts.)

// The visitor's menu, loaded on first use, opens from the keyboard on its first item and closes on
// Escape: tests/e2e/keyboard.spec.ts walks it to its last item. The FAQ's questions open with
// Enter: tests/e2e/landing.spec.ts.

test("settings tabs move with the arrow keys; the date picker takes over what was typed before it loaded", async ({
  page,
  signInShared,
}) => {
  // Two waits for a quiet network (idle): on a loaded 2-core CI machine they alone can take most of 30 s.
  test.setTimeout(60_000);
  await signInShared("/debtors-list");
  await addDebtor(page, "Lena Lazy", uniqueEmail("lazy"), "10");

  await page.goto("/iam/info");
  const info = page.getByRole("tab", { name: "Personal information" });
  await expect(info).toHaveAttribute("aria-selected", "true");
  await info.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("tab", { name: "Organizations" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/iam\/orgs$/);
  await expect(page.getByRole("tab", { name: "Organizations" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toHaveAccessibleName("Organizations");

  // The react-aria picker is not fetched with the page, nor once it is idle: only by the first
  // interaction with its form. Its chunk is then held until the user is typing in the native field,
  // and let through: nothing may be swapped while they are still in it.
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (/date-picker-field/.test(request.url())) fetched.push(request.url());
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/date-picker-field/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/schedule");
  await idle(page);
  expect(fetched).toEqual([]);
  const requested = page.waitForRequest(/date-picker-field/);
  const arrived = page.waitForResponse(/date-picker-field/);
  const native = page.getByLabel("Payment Due Date");
  await native.fill("2031-05-06");
  await requested;
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
  release();
  await arrived;
  await page.waitForTimeout(300);
  await expect(native).toBeFocused();
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
  await page.getByLabel("Frequency").focus();
  await expect(page.getByRole("spinbutton", { name: /year/ })).toHaveText("2031", { timeout: 10_000 });
  const field = page.getByRole("group", { name: "Payment Due Date" }).locator("xpath=..");
  await expect(field.locator('input[name="due_date"]')).toHaveValue("2031-05-06");
});

test("the date picker's first use is its calendar button, by keyboard: the calendar opens at once @phone", async ({
  page,
  signInShared,
}) => {
  await signInShared("/debtors-list");
  await addDebtor(page, "Cal Endar", uniqueEmail("calendar"), "10");
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (/date-picker-field/.test(request.url())) fetched.push(request.url());
  });
  await page.goto("/schedule");
  await page.waitForLoadState("networkidle");
  expect(fetched).toEqual([]);
  // Before any interaction: the stand-in, with the picker's button, and no picker code fetched.
  const opener = page.getByRole("button", { name: "Open calendar" });
  await expect(opener).toBeVisible();
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
  await opener.focus();
  await page.keyboard.press("Enter");
  const calendar = page.getByRole("grid");
  await expect(calendar).toBeVisible();
  // The calendar has the focus (a day), so the arrows and Enter pick a date.
  await expect(calendar.locator(":focus")).toHaveCount(1);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await expect(calendar).toBeHidden();
  const field = page.getByRole("group", { name: "Payment Due Date" }).locator("xpath=..");
  await expect(field.locator('input[name="due_date"]')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  // Closed, the focus is on the picker's own calendar button (the stand-in's is gone).
  await expect(page.getByRole("button", { name: "Open calendar" })).toBeFocused();
});

test("the account menu's code is fetched on first use; the first click opens it, and so does the keyboard", async ({
  page,
  signInShared,
}) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (/header-menus/.test(request.url())) fetched.push(request.url());
  });
  await signInShared("/dashboard");
  await idle(page);
  expect(fetched).toEqual([]);
  const trigger = page.getByRole("button", { name: "Open account menu" });
  await trigger.click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  await expect(drawer.getByRole("button", { name: "Log out" })).toBeVisible();
  expect(fetched.length).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(trigger).toBeFocused();

  // A fresh page, from the keyboard alone.
  await page.reload();
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Open account menu" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
});

test("a toast is announced: its text goes into a live region that was on the page before it", async ({
  page,
  signInShared,
}) => {
  await signInShared("/dashboard");
  const region = page.getByRole("region", { name: "Notifications" });
  await expect(region).toHaveAttribute("aria-live", "polite");
  await expect(region).toBeAttached();
  // The region was in the server's HTML, empty: a region created with its message is often not read.
  const html = await (await page.request.get("/dashboard")).text();
  expect(html).toMatch(/<section[^>]*aria-label="Notifications"[^>]*aria-live="polite"/);
  await addDebtor(page, "Tess Toast", uniqueEmail("toast"), "10");
  await expect(region.getByText("Debtor added")).toBeVisible();
  // It leaves by itself (2.5 s in the dashboard area).
  await expect(region.getByText("Debtor added")).toHaveCount(0, { timeout: 10_000 });
});

// That every page fetches, before any interaction, only the JavaScript its budget counts
// (scripts/check-bundles.mjs): the sweep checks it on each page it loads (tests/e2e/accessibility.spec.ts).
