import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { makeDebtor } from "./fixtures";
import { get, markup, NOT_FOUND_TEXT, type SignedIn, signIn, uniqueEmail } from "./helpers";

/**
 * Every page route has an error boundary (app/components/route-error.tsx): a loader's failure
 * renders in the page's place, inside the root Layout's shell (the header and its navigation, the
 * main landmark, the footer), and says which page failed. Asserted on the debtor's page, whose
 * loader throws a 404 for a debtor that is not the user's and fails outright when the database
 * does.
 */

/** The signed-in shell: the header with the app's navigation, then main, then the footer. */
function expectShell(html: string) {
  expect(html).toMatch(/<header[^>]*>[\s\S]*<nav aria-label="Main"[\s\S]*href="\/debtors-list"[\s\S]*<\/header>/);
  expect(html).toContain('aria-label="Open account menu"');
  expect(html).toContain("Copyright © 2024 by Dunly");
  // The boundary is the page: inside main, after the header and before the footer.
  const main = /<main id="main"[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? "";
  expect(main).toContain('data-testid="route-error"');
  return main;
}

describe("a page route's error boundary", () => {
  let owner: SignedIn;
  let stranger: SignedIn;
  let debtorId: number;
  beforeAll(async () => {
    owner = await signIn(uniqueEmail("rerr-owner"));
    stranger = await signIn(uniqueEmail("rerr-stranger"));
    debtorId = (await makeDebtor(owner.userId, { fullName: "Private Pia" })).id;
  });

  it("a 404 from the debtor page's loader keeps the shell and says the debtor could not be loaded", async () => {
    const res = await get(`/debtors/${debtorId}`, { cookie: stranger.cookie });
    expect(res.status).toBe(404);
    const main = expectShell(await markup(res));
    expect(main).toContain('role="alert"');
    expect(main).toMatch(/<h1[^>]*>Sorry, We Can't Find That Page<\/h1>/);
    expect(main).toContain("We couldn't load this debtor.");
    expect(main).toMatch(/<span class="sr-only">Error <\/span>404/);
    expect(main).not.toContain("Private Pia");
    // The not-found page's way out.
    expect(main).toMatch(/<a[^>]*href="\/dashboard"[^>]*>Go Back<\/a>/);
  });

  it("a malformed id is the same 404 in the same place", async () => {
    const res = await get("/debtors/abc", { cookie: owner.cookie });
    expect(res.status).toBe(404);
    const main = expectShell(await markup(res));
    expect(main).toContain(NOT_FOUND_TEXT);
    expect(main).toContain("We couldn't load this debtor.");
  });

  it("a failing database is a 500 in the page's place: 'Something went wrong', a retry link, no error text or stack", async () => {
    // Only the debtor page's query reads delivery_rollups (the archive's months); the root loader
    // (the session and the header) does not, so the shell renders and the page's loader throws.
    await env.DB.exec("ALTER TABLE delivery_rollups RENAME TO delivery_rollups_away");
    let res: Response;
    try {
      res = await get(`/debtors/${debtorId}?from=retry`, { cookie: owner.cookie });
    } finally {
      await env.DB.exec("ALTER TABLE delivery_rollups_away RENAME TO delivery_rollups");
    }
    expect(res.status).toBe(500);
    const whole = await res.text();
    const html = whole.replace(/<script[\s\S]*?<\/script>/g, "").replace(/&#x27;|&#39;/g, "'");
    const main = expectShell(html);
    expect(main).toMatch(/<h1[^>]*>Something went wrong<\/h1>/);
    expect(main).toContain("We couldn't load this debtor.");
    expect(main).toMatch(/<span class="sr-only">Error <\/span>500/);
    // "Try again" loads the same address as a new document.
    expect(main).toMatch(new RegExp(`<a[^>]*href="/debtors/${debtorId}\\?from=retry"[^>]*>Try again</a>`));
    // The build is production: neither the page nor its hydration data carries the error's words
    // or a stack.
    expect(main).not.toContain("<pre");
    expect(whole).not.toMatch(/delivery_rollups|no such table|D1_ERROR|SQLITE/i);
    expect(whole).not.toMatch(/\bat [\w.<>]+ \(|\.js:\d+:\d+/);
    // Without the failure the same address is the debtor's page again.
    const again = await get(`/debtors/${debtorId}`, { cookie: owner.cookie });
    expect(again.status).toBe(200);
    expect(await markup(again)).toContain("Private Pia");
  });
});
