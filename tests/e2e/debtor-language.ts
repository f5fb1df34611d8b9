import { expect, type Page } from "@playwright/test";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { daytimeZone } from "../support/daytime-zone";
import { appOrigin, literal, readMailbox, resendTo, signInByRequest, uniqueEmail } from "./helpers";

/**
 * A user whose number format is German (de-DE), so a debtor without a language of their own reads
 * their pages in German, and that debtor's three links from a reminder sent now: their page (/d),
 * "I've paid" (/p) and the opt-out (/u). The debtor owes one invoice, RE-1, of €1,234.56; `extra`: more
 * of the debtor's fields for the API (its kind, the invoice's due date).
 */
export async function germanDebtorLinks(page: Page, extra: Record<string, unknown> = {}) {
  await signInByRequest(page, { redirectTo: "/welcome" });
  const headers = { Origin: appOrigin() };
  const saved = await page.request.post("/iam/info", {
    form: { intent: PROFILE_INTENTS.defaultCurrency, default_currency: "EUR", number_locale: "de-DE" },
    headers,
  });
  expect(saved.status(), "the number format saved").toBe(200);
  const name = "Greta Grün";
  const email = uniqueEmail("de-debtor");
  const added = await page.request.post("/api/debtors/add", {
    data: { full_name: name, email, debt: 1234.56, invoice_number: "RE-1", time_zone: daytimeZone(), ...extra },
    headers,
  });
  expect(added.status(), "the debtor added").toBe(200);
  const { data } = (await added.json()) as { data: { id: number } };

  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption(String(data.id));
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);
  await page.goto("/debtors-list");
  await resendTo(page, name);

  let html = "";
  await expect
    .poll(
      async () => {
        html = (await readMailbox(page)).find((m) => m.to === email)?.html ?? "";
        return html !== "";
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const link = (kind: "d" | "p" | "u") => {
    const href = new RegExp(`href="(${literal(appOrigin())}/${kind}/[^"]+)"`).exec(html)?.[1];
    expect(href, `the reminder's /${kind}/ link`).toBeTruthy();
    return new URL(href!.replace(/&amp;/g, "&")).pathname;
  };
  return { id: data.id, name, email, portal: link("d"), paid: link("p"), optOut: link("u") };
}
