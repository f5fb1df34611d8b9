import { test as base, type Cookie } from "@playwright/test";
import { signInRequests, uniqueEmail } from "./helpers";

interface SharedAccount {
  email: string;
  /** The session cookie and the `tz` cookie, as `signInByRequest` leaves them. */
  cookies: Cookie[];
}

/**
 * `test` with `signInShared`: the page signs in to an account its worker shares with the other
 * tests that use it, made once per worker by the requests of `signInByRequest`, instead of a new
 * account per test. For tests that need no empty account and change nothing another test reads:
 * their debtors have names of their own, they count only what they added, and they leave the
 * account's settings (name, photo, plan, password) as they were. A test that needs an empty account,
 * or whose subject is signing in, makes its own user (`signInByRequest`, `signIn`).
 * Tests run one after another in a worker, so the account is never used by two at once.
 */
export const test = base.extend<
  { signInShared: (redirectTo?: string) => Promise<string> },
  { sharedAccount: SharedAccount }
>({
  sharedAccount: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, timezoneId } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL });
      const email = uniqueEmail("shared");
      let cookies: Cookie[];
      try {
        await signInRequests(await context.newPage(), { email, origin: new URL(baseURL!).origin, timezoneId });
        cookies = (await context.storageState()).cookies;
      } finally {
        await context.close();
      }
      await use({ email, cookies });
    },
    { scope: "worker" },
  ],
  signInShared: async ({ page, sharedAccount }, use) => {
    await use(async (redirectTo = "/welcome") => {
      await page.context().addCookies(sharedAccount.cookies);
      await page.goto(redirectTo);
      return sharedAccount.email;
    });
  },
});

export { expect } from "@playwright/test";
