import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { matchRouteIds, PAGES, pageFiles, readManifests } from "../../scripts/client-js.mjs";
import { germanDebtorLinks } from "./debtor-language";
import { appOrigin, signInRequests, uniqueEmail } from "./helpers";

// The sweep: every page and every open modal, menu, drawer and date picker, signed out and signed
// in, at desktop and phone width (the @phone projects). Everywhere: axe-core finds no serious or
// critical violation in either theme, nothing is wider than the screen, and the
// Content-Security-Policy refuses nothing. On every page also: its own title, description and
// favicon, and the JavaScript it fetches before any interaction is only what its budget counts
// (scripts/check-bundles.mjs). One walk serves all of these: each page is loaded once for them.
// Each test gathers every finding before it fails, so one run lists them all. Each state is
// audited in both themes in place (auditThemes): only the CSS reads the theme.

const THEMES = ["dracula", "light"] as const;
type Finding = { where: string; rule: string; impact: string; targets: string[]; help: string };

/**
 * Watches the page for the whole test: every Content-Security-Policy refusal (from the console, and
 * from the `securitypolicyviolation` event in case the console words it differently) becomes a
 * finding, and the JavaScript files it fetches are kept for `checkScripts`.
 */
async function watch(page: Page, findings: Finding[]) {
  const scripts = new Set<string>();
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) {
      findings.push({
        where: page.url(),
        rule: "content-security-policy",
        impact: "serious",
        targets: [text],
        help: "",
      });
    }
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Refused to load ${event.blockedURI} (Content Security Policy: ${event.violatedDirective})`);
    });
  });
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith(".js")) scripts.add(path.replace(/^\//, ""));
  });
  return scripts;
}

const manifests = readManifests("build/client");
const routeOf = (url: string) => matchRouteIds(manifests.router, new URL(url, "http://x").pathname).at(-1);

/**
 * The page fetched, from its navigation until a second after it was idle (its audits take that
 * long), only JavaScript its budget counts: its first load, and the lazy modules its PAGES entry
 * (scripts/client-js.mjs) names as fetched without interaction.
 */
async function checkScripts(page: Page, where: string, fetched: Set<string>, idleAt: number, findings: Finding[]) {
  await page.waitForTimeout(Math.max(0, 1_000 - (Date.now() - idleAt)));
  const address = new URL(where, "http://x").pathname;
  // An entry for this very address (a tab that loads more), else the one of its route.
  const entry =
    PAGES.find((p) => (p.url ?? p.path) === address) ?? PAGES.find((p) => routeOf(p.url ?? p.path) === routeOf(where));
  if (!entry) {
    findings.push({
      where,
      rule: "javascript-budget",
      impact: "serious",
      targets: ["not in scripts/client-js.mjs's PAGES"],
      help: "",
    });
    return;
  }
  const counted = pageFiles(manifests, address, entry.lazy);
  const allowed = new Set([...counted.first, ...counted.lazy]);
  const extra = [...fetched].filter((file) => !allowed.has(file));
  if (extra.length)
    findings.push({
      where,
      rule: "javascript-budget",
      impact: "serious",
      targets: extra,
      help: "fetched without interaction, not counted",
    });
}

/** The rules that read colours: the only ones a theme (CSS custom properties alone) can change. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** axe-core itself, put into a document once and run there for every state and theme of it. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

async function audit(page: Page, where: string, findings: Finding[], include?: string, coloursOnly = false) {
  // The pages have no frames. Injected by DevTools (as @axe-core/playwright's legacy mode does), so
  // the page's Content-Security-Policy does not apply to it; once per document, not per run.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ include, runOnly }) => {
      type Axe = {
        run(
          context: unknown,
          options: unknown,
        ): Promise<{ violations: { id: string; impact?: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
      const { axe } = window as unknown as { axe: Axe };
      const result = await axe.run(include ? { include: [include] } : document, {
        runOnly,
        resultTypes: ["violations"],
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? "",
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
      }));
    },
    {
      include: include ?? null,
      runOnly: coloursOnly ? { type: "rule", values: COLOUR_RULES } : { type: "tag", values: TAGS },
    },
  );
  for (const v of violations) {
    if (v.impact !== "serious" && v.impact !== "critical") continue;
    findings.push({ where, rule: v.id, impact: v.impact, targets: v.targets, help: v.help });
  }
}

/** Every page has its own title, a description (unless not indexed) and the favicon. */
async function checkHead(page: Page, where: string, findings: Finding[]) {
  const head = await page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
    icon: document.querySelector('link[rel="icon"]')?.getAttribute("href") ?? "",
    noindex: /noindex/.test(document.querySelector('meta[name="robots"]')?.getAttribute("content") ?? ""),
  }));
  // A page kept out of search results (a debtor's token page) needs no description, and is titled
  // with the sender's name, not Dunly's (decisions/058).
  const titled = head.noindex ? /^\S.* · \S.*$/ : /^(\S.* · )?Dunly( · .+)?$/;
  if (!titled.test(head.title) || (!head.description && !head.noindex) || !head.icon) {
    findings.push({ where, rule: "document-head", impact: "serious", targets: [JSON.stringify(head)], help: "" });
  }
}

async function useTheme(context: BrowserContext, theme: (typeof THEMES)[number]) {
  await context.addInitScript((t) => {
    try {
      localStorage.setItem("theme", t);
    } catch {}
  }, theme);
}

/**
 * Nothing is wider than the screen: neither the page nor an open dialog scrolls sideways. On the
 * phone project this is the layout check of every page and modal, so the journeys themselves run
 * at desktop width only (a journey is re-run on a phone where its subject is the phone's layout).
 */
async function checkFits(page: Page, where: string, findings: Finding[]) {
  const wide = await page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll<HTMLElement>('[role="dialog"]')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}: ${el.scrollWidth} > ${el.clientWidth}`),
  );
  if (wide.length) findings.push({ where, rule: "fits-the-screen", impact: "serious", targets: wide, help: "" });
}

/**
 * Audits the page as it stands in each theme. The theme is only CSS (`data-theme` on <html>, which
 * the boot script sets from the stored choice), so it is switched in place, and the colour
 * transitions it starts are waited out before axe reads the colours. Every rule runs in the first
 * theme; the others change nothing but colours, so only the rules that read colours run again.
 */
async function auditThemes(page: Page, where: string, findings: Finding[], include?: string) {
  for (const [i, theme] of THEMES.entries()) {
    await page.evaluate(async (t) => {
      document.documentElement.dataset.theme = t;
      // A layout flushes the styles, starting any transition the switch causes.
      document.body.getBoundingClientRect();
      const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
      await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
    }, theme);
    await audit(page, `${where} (${theme})`, findings, include, i > 0);
  }
  await checkFits(page, where, findings);
}

/**
 * Waits until the page is idle and hydrated (React Router's scripts ran), so what axe reads is final;
 * a page sent without module scripts (the landing page, docs/decisions/026) is final once idle.
 */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(
    () => "__reactRouterRouteModules" in window || !document.querySelector('script[type="module"]'),
  );
}

/** Loads a page and runs every check of the sweep on it. */
async function visit(page: Page, path: string, scripts: Set<string>, findings: Finding[]) {
  scripts.clear();
  await page.goto(path);
  await settle(page);
  const idleAt = Date.now();
  // The stored choice was applied on load (the boot script, an inline script under the nonce).
  await expect(page.locator("html")).toHaveAttribute("data-theme", THEMES[0]);
  await auditThemes(page, path, findings);
  await checkHead(page, path, findings);
  await checkScripts(page, path, scripts, idleAt, findings);
}

test("signed out, both themes: the public pages @phone", async ({ page, context }) => {
  test.setTimeout(60_000);
  await useTheme(context, THEMES[0]);
  const findings: Finding[] = [];
  const scripts = await watch(page, findings);
  // The pages a bad or old link opens share one small card; at the phone's width only, where it may
  // not fit (decisions/044).
  const badLinks = [
    "/auth/verify?token=not-a-token",
    "/u/not-a-token",
    "/p/not-a-token",
    "/d/not-a-token",
    "/no-such-page",
  ];
  for (const path of [
    "/",
    "/welcome",
    "/pricing",
    "/404?redirectTo=%2Fdashboard",
    "/sign-in/password",
    ...(test.info().project.name === "phone" ? badLinks : []),
  ]) {
    await visit(page, path, scripts, findings);
  }
  expect(findings).toEqual([]);
});

test("a debtor's pages in German (their page, I've paid, opt-out), both themes @phone", async ({
  page,
  browser,
}, testInfo) => {
  // At a phone's width only, where German's long words are hardest to fit; the English sweep runs at both.
  test.skip(testInfo.project.name !== "phone", "phone layout");
  test.setTimeout(90_000);
  const links = await germanDebtorLinks(page);
  // The debtor's own browser: no session, the project's screen.
  const { baseURL, viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({
    baseURL,
    viewport,
    userAgent,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    timezoneId,
  });
  await useTheme(context, THEMES[0]);
  try {
    const debtorPage = await context.newPage();
    const findings: Finding[] = [];
    const scripts = await watch(debtorPage, findings);
    for (const path of [links.portal, links.paid, links.optOut]) {
      await visit(debtorPage, path, scripts, findings);
      await expect(debtorPage.locator("html")).toHaveAttribute("lang", "de");
    }
    expect(findings).toEqual([]);
  } finally {
    await context.close();
  }
});

/**
 * Late-payment charges (decisions/065) on the signed-in user's account as a user gets them: their
 * own contract terms saved in Settings → Late charges (a fixed fee, no grace), which accrues the
 * account's late company debtors at once. `fee` is typed in the user's number format.
 */
async function chargeLateFees(page: Page, fee: string, currency: string, paymentOrder = "principal_first") {
  const saved = await page.request.post("/iam/charges", {
    form: {
      intent: "charges-save",
      enabled: "on",
      rule: "contract",
      contract_kind: "fixed",
      contract_fee: fee,
      contract_fee_currency: currency,
      contract_grace_days: "0",
      payment_order: paymentOrder,
    },
    headers: { Origin: appOrigin() },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

test("a debtor's page with late-payment charges, in German: both themes, and without JavaScript @phone", async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "phone layout");
  test.setTimeout(120_000);
  // A company whose invoice fell due a month ago; the user's fee of €25, charges first, €10 paid.
  const links = await germanDebtorLinks(page, { kind: "company", due_on: inDaysFrom(-30) });
  await chargeLateFees(page, "25,00", "EUR", "charges_first");
  const paid = await page.request.post("/api/payments/add", {
    data: { debtor_id: links.id, amount: 10, paid_on: inDaysFrom(-1), note: "" },
    headers: { Origin: appOrigin() },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const { baseURL, viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, timezoneId } = testInfo.project.use;
  const screen = { baseURL, viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, timezoneId };
  const context = await browser.newContext(screen);
  await useTheme(context, THEMES[0]);
  try {
    const debtorPage = await context.newPage();
    const findings: Finding[] = [];
    const scripts = await watch(debtorPage, findings);
    await visit(debtorPage, links.portal, scripts, findings);
    const charges = debtorPage.getByTestId("portal-charges");
    await expect(charges.getByText("Verzugsgebühr", { exact: false }).first()).toBeVisible();
    await expect(debtorPage.getByTestId("portal-charge-totals")).toContainText("Verzugskosten");
    expect(findings).toEqual([]);
  } finally {
    await context.close();
  }
  // The same page without JavaScript: the charges and the totals are in the HTML itself.
  const plain = await browser.newContext({ ...screen, javaScriptEnabled: false });
  try {
    const noScript = await plain.newPage();
    await noScript.goto(links.portal);
    await expect(noScript.getByTestId("portal-charges").first()).toContainText("Verzugsgebühr");
    await expect(noScript.getByTestId("portal-charge-totals")).toContainText("Gesamt");
    await expect(noScript.getByTestId("portal-charges").first()).toContainText(/10,00\s€ von 25,00\s€ bezahlt/);
  } finally {
    await plain.close();
  }
});

test("signed out, both themes: a field error and the visitor menus @phone", async ({ page, context }) => {
  await useTheme(context, THEMES[0]);
  const findings: Finding[] = [];
  await watch(page, findings);
  await page.goto("/");
  await settle(page);
  await page.getByRole("button", { name: "Get magic link" }).click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await auditThemes(page, "/ with a field error", findings);
  // The landing page's menu is a disclosure; the hydrated pages' a Radix menu.
  await page.getByTestId("visitor-menu").locator("summary").click();
  await expect(page.getByRole("navigation", { name: "Menu" })).toBeVisible();
  await auditThemes(page, "/ with its menu open", findings);

  await page.goto("/sign-in/password");
  await settle(page);
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("menu")).toBeVisible();
  await auditThemes(page, "visitor menu", findings);
  expect(findings).toEqual([]);
});

/**
 * A new user with a debtor, an organization and a schedule, so the lists and cards have rows. The
 * debtor and the organization through the JSON API (their modals are audited below, not their
 * saving); the schedule through its form.
 */
async function signInWithRows(page: Page) {
  await signInRequests(page, {
    email: uniqueEmail(),
    origin: appOrigin(),
    timezoneId: test.info().project.use.timezoneId,
  });
  const headers = { Origin: appOrigin() };
  const debtor = await page.request.post("/api/debtors/add", {
    data: { full_name: "Alma Axe", email: "alma@example.com", debt: 120, active_strategy: 1 },
    headers,
  });
  expect(debtor.status()).toBe(200);
  const { data } = (await debtor.json()) as { data: { id: number } };
  // A copied contact (decisions/057): the debtor's page lists it with its state.
  const contact = await page.request.post("/api/debtors/contacts/add", {
    data: { debtor_id: data.id, name: "Carla Copy", email: "carla@example.com", role: "Accounts payable" },
    headers,
  });
  expect(contact.status()).toBe(200);
  const org = await page.request.post("/api/org/add", {
    data: { name: "Axe Ltd", address: "1 Audit Street" },
    headers,
  });
  expect(org.status()).toBe(200);
  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);
  // Its toast shown: the flash is spent here, so no later page of the sweep shows it (and fetches
  // the toast's code, which the JavaScript budget counts only after an interaction).
  await expect(page.getByText("Email reminder scheduled.")).toBeVisible();
  return { debtorId: data.id };
}

// Signed in: three tests (every page; every settings tab; then every modal, drawer, combobox and date
// picker), so the workers share the sweep.
test("signed in, both themes: every page @phone", async ({ page, context }) => {
  test.setTimeout(180_000);
  await useTheme(context, THEMES[0]);
  const findings: Finding[] = [];
  const scripts = await watch(page, findings);
  const { debtorId } = await signInWithRows(page);

  for (const path of [
    "/welcome",
    "/dashboard",
    "/debtors-list",
    "/schedules-list",
    "/schedule",
    "/report",
    "/pricing",
    "/debtors/import",
    // The debtors list's bulk "Use another cadence".
    `/debtors/cadence?ids=${debtorId}`,
    // The debtor's page, with its contacts (decisions/057).
    `/debtors/${debtorId}`,
    // A page's error boundary (app/components/route-error.tsx): a debtor that is not there.
    "/debtors/999999999",
  ]) {
    await visit(page, path, scripts, findings);
  }
  expect(findings).toEqual([]);
});

// Settings apart from the other pages: three tests share the signed-in sweep between the workers.
test("signed in with late-payment charges, both themes: the dashboard's and the report's figures @phone", async ({
  page,
  context,
}) => {
  // The figures' cards and rows are the same at both widths; the phone's is the one that may not fit.
  test.skip(test.info().project.name !== "phone", "phone layout");
  test.setTimeout(90_000);
  await useTheme(context, THEMES[0]);
  const findings: Finding[] = [];
  const scripts = await watch(page, findings);
  await signInWithRows(page);
  // A company whose invoice fell due a month ago, and the user's late fee of 25.00.
  const late = await page.request.post("/api/debtors/add", {
    data: { kind: "company", full_name: "Late Ltd", email: "late@example.com", debt: 400, due_on: inDaysFrom(-30) },
    headers: { Origin: appOrigin() },
  });
  expect(late.status(), await late.text()).toBe(200);
  await chargeLateFees(page, "25.00", "USD");
  await visit(page, "/dashboard", scripts, findings);
  await expect(page.getByTestId("money-charges-outstanding")).toBeVisible();
  await expect(page.getByTestId("money-aging").getByRole("rowheader", { name: "USD charges" })).toBeVisible();
  await visit(page, "/report", scripts, findings);
  await expect(page.getByTestId("report-aging").getByRole("rowheader", { name: "USD charges" })).toBeVisible();
  expect(findings).toEqual([]);
});

test("signed in, both themes: every settings tab @phone", async ({ page, context }) => {
  test.setTimeout(180_000);
  await useTheme(context, THEMES[0]);
  const findings: Finding[] = [];
  const scripts = await watch(page, findings);
  await signInWithRows(page);
  // On the desktop, the first tab only: the settings' side navigation, which only the desktop shows.
  // The tabs' forms are the same markup and colours at both widths, audited at the phone's, where
  // they may not fit (decisions/044).
  const phone = test.info().project.name === "phone";
  for (const path of [
    "/iam/info",
    "/iam/orgs",
    "/iam/subscription",
    "/iam/emails",
    "/iam/templates",
    "/iam/brand",
    // The summary autopilot shows before it is turned on, with the cadence form.
    "/iam/cadence?review=autopilot",
    "/iam/bank",
    // Settings → Accounting, before Xero is connected (decisions/060).
    "/iam/accounting",
    // Settings → Late charges (decisions/065), off as every account starts.
    "/iam/charges",
    // Settings → Text messages (decisions/069), off as every account starts.
    "/iam/texts",
    // Sending domain, before a domain is added: the form.
    "/iam/domain",
  ].slice(0, phone ? undefined : 1)) {
    await visit(page, path, scripts, findings);
  }

  // The journeys below at the phone's width only: tests/e2e/sending-domain.spec.ts and
  // accounting-*.spec.ts walk them on the desktop.
  // Sending domain with a domain: its status and DNS records (docs/decisions/059), verified through
  // the local stand-in of Resend, whose own page is audited too (plain HTML in one theme, like the
  // other stand-ins: it has no theme to switch). The pending state shows the same table.
  if (phone) {
    const domain = `sweep-${Date.now().toString(36)}.example.com`;
    await page.getByLabel("Your domain", { exact: true }).fill(domain);
    await page.getByRole("button", { name: "Add domain" }).click();
    await expect(page.getByTestId("dns-records")).toBeVisible();
    await page.goto("/dev/resend/domains");
    await audit(page, "/dev/resend/domains", findings);
    await checkFits(page, "/dev/resend/domains", findings);
    await page.getByRole("button", { name: `Verify ${domain}` }).click();
    await page.goto("/iam/domain");
    await page.getByRole("button", { name: "Check verification" }).click();
    await expect(page.getByTestId("domain-status")).toHaveText("Verified");
    await visit(page, "/iam/domain", scripts, findings);
  }

  // The dev outbox of text messages (decisions/068), with a text in it: plain HTML in one theme,
  // like the other stand-ins; tests/e2e/text-escalation.spec.ts walks it on the desktop.
  if (phone) {
    await page.goto("/dev/texts");
    await page.getByLabel("Number (E.164, such as +447700900123)").fill("+447700900999");
    await page.getByLabel("Message", { exact: true }).fill("A text from the sweep");
    await page.getByRole("button", { name: "Send test text" }).click();
    await expect(page.getByTestId("dev-text").filter({ hasText: "A text from the sweep" }).first()).toBeVisible();
    await audit(page, "/dev/texts", findings);
    await checkFits(page, "/dev/texts", findings);
  }

  // Settings → Cadence with text messages on: each step's Channel list (decisions/070). The
  // Text messages tab was audited above as every account starts (texts off, the words' form).
  if (phone) {
    await page.goto("/iam/texts");
    await page.getByLabel("Send text messages").check();
    await page.getByLabel("United Kingdom").check();
    await page.getByRole("button", { name: "Save text messages" }).click();
    await expect(page.getByText("Text messages saved")).toBeVisible();
    await visit(page, "/iam/cadence", scripts, findings);
    await expect(page.getByLabel("Channel 7 days after")).toBeVisible();
  }

  // Settings → Accounting: its journey (connect, import, the write-back, both stand-ins).
  if (phone) {
    // Settings → Accounting connected through the local Xero stand-in, whose consent page and
    // organisation page are audited too (plain HTML in one theme, like the other stand-ins).
    await page.goto("/iam/accounting");
    await page.getByRole("button", { name: "Connect Xero" }).click();
    await audit(page, "/dev/xero/authorize", findings);
    await checkFits(page, "/dev/xero/authorize", findings);
    await page.getByRole("button", { name: "Allow access" }).click();
    // Hydrated first: a click before it would be a plain form post racing the page's scripts.
    await settle(page);
    await page.getByRole("button", { name: "Show what comes in" }).click();
    await expect(page.getByText(/open invoices/)).toBeVisible();
    await auditThemes(page, "/iam/accounting with the import preview", findings);
    // Imported: the write-back setting (decisions/063), ticked without a bank account (a field error).
    await page.getByRole("button", { name: "Import from Xero" }).click();
    // The import's toast closed: the audit reads the tab, not a toast still fading in.
    await page.getByRole("button", { name: "Close toast" }).click();
    await page.getByLabel("Record Dunly's payments in Xero").check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Choose the bank account in Xero that Dunly's payments go to")).toBeVisible();
    await auditThemes(page, "/iam/accounting with the write-back setting", findings);
    await page.goto("/dev/xero");
    await audit(page, "/dev/xero", findings);
    await checkFits(page, "/dev/xero", findings);
    await page.goto("/iam/accounting");
    await page.getByRole("button", { name: "Disconnect Xero" }).click();
    await visit(page, "/iam/accounting", scripts, findings);
    // The QuickBooks stand-in's consent page and company page likewise.
    await page.getByRole("button", { name: "Connect QuickBooks" }).click();
    await audit(page, "/dev/quickbooks/authorize", findings);
    await checkFits(page, "/dev/quickbooks/authorize", findings);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await expect(page.getByTestId("accounting-status")).toContainText("Connected to QuickBooks");
    await page.goto("/dev/quickbooks");
    await audit(page, "/dev/quickbooks", findings);
    await checkFits(page, "/dev/quickbooks", findings);
    await page.goto("/iam/accounting");
    await page.getByRole("button", { name: "Disconnect QuickBooks" }).click();
  }
  expect(findings).toEqual([]);
});

test("signed in, both themes: every modal, drawer, combobox and date picker @phone", async ({ page, context }) => {
  // A dialog is the same markup and colours at both widths; the phone's is the one that may not fit
  // (decisions/044). tests/e2e/keyboard.spec.ts walks the dialogs' focus on the desktop.
  test.skip(test.info().project.name !== "phone", "phone layout");
  test.setTimeout(180_000);
  await useTheme(context, THEMES[0]);
  const findings: Finding[] = [];
  await watch(page, findings);
  await signInWithRows(page);
  await page.goto("/debtors-list");
  await settle(page);

  // Modals: add debtor (with its errors), configure debtor and its edit step.
  await page.getByRole("button", { name: "Add Debtor" }).click();
  const add = page.getByRole("dialog", { name: "Add a new debtor" });
  await add.getByRole("button", { name: "Save" }).click();
  await expect(add.getByRole("alert").first()).toBeVisible();
  await auditThemes(page, "add debtor modal with errors", findings);
  await page.keyboard.press("Escape");
  await expect(add).toBeHidden();

  await page.getByRole("button", { name: "Configure Alma Axe" }).click();
  const configure = page.getByRole("dialog").first();
  await expect(configure).toBeVisible();
  await auditThemes(page, "configure debtor modal", findings);
  // Exact: the debtor's invoices have their own "Edit invoice …" buttons.
  await configure.getByRole("button", { name: "Edit", exact: true }).click();
  await auditThemes(page, "configure debtor, edit", findings);
  await page.keyboard.press("Escape");
  await expect(configure).toBeHidden();

  // The schedule's modal, its edit step and the date picker open inside it.
  await page.goto("/schedules-list");
  await settle(page);
  await page
    .getByRole("button", { name: /^Configure / })
    .first()
    .click();
  const schedule = page.getByRole("dialog", { name: "Configure schedule" });
  await expect(schedule).toBeVisible();
  await auditThemes(page, "configure schedule modal", findings);
  await schedule.getByRole("button", { name: "Edit" }).click();
  await auditThemes(page, "configure schedule, edit", findings);
  await schedule.getByRole("button", { name: "Open calendar" }).click();
  // Its chunk loads on this first use: on a loaded CI machine that alone can take seconds.
  await expect(page.getByRole("grid")).toBeVisible({ timeout: 15_000 });
  await auditThemes(page, "date picker in the edit modal", findings);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect(schedule).toBeHidden();

  // The new-schedule form with its errors and its date picker.
  await page.goto("/schedule");
  await settle(page);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByText("Please select a debtor")).toBeVisible();
  await auditThemes(page, "/schedule with errors", findings);
  await page.getByRole("button", { name: "Open calendar" }).click();
  await expect(page.getByRole("grid")).toBeVisible();
  await auditThemes(page, "/schedule date picker", findings);
  await page.keyboard.press("Escape");

  // The dashboard's debtor combobox open, then the account drawer.
  await page.goto("/dashboard");
  await settle(page);
  await page.getByRole("combobox", { name: "Filter by debtor" }).click();
  await page.getByRole("combobox", { name: "Filter by debtor" }).press("ArrowDown");
  await expect(page.getByRole("listbox")).toBeVisible();
  await auditThemes(page, "dashboard debtor combobox", findings);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Open account menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
  await auditThemes(page, "account drawer", findings);
  expect(findings).toEqual([]);
});

/** The calendar day `days` from today (UTC), YYYY-MM-DD. */
function inDaysFrom(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
