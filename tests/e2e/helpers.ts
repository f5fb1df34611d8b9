import { expect, type Page } from "@playwright/test";

interface MailboxMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
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
        const res = await page.request.get("/dev/mailbox.json");
        const messages = (await res.json()) as MailboxMessage[];
        const message = messages.find((m) => m.to === email);
        link = message?.text.match(/https?:\/\/\S+\/auth\/verify\?token=[a-z0-9]+/)?.[0];
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}

/** Requests a magic link from the form on the current page and returns it from the dev mailbox. */
export async function requestSignInLink(page: Page, email: string) {
  await page.getByPlaceholder("Your Email").fill(email);
  await page.getByRole("button", { name: "Get magic link" }).click();
  await expect(page.getByText("Please Check your email for the sign in link")).toBeVisible();
  return readSignInLink(page, email);
}

/** Requests a magic link from the form on the current page and completes sign-in with it. */
export async function signInWithMagicLink(page: Page, email: string) {
  const link = await requestSignInLink(page, email);
  await page.goto(link);
  await page.getByRole("button", { name: "Continue to Dunly" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/verify"));
}
