import { describe, expect, it } from "vitest";
import { BODY_MAX } from "../app/domain/template-body";
import { dunlyStepText } from "./dunly-step-text";
import type { ReminderEmailProps } from "./reminder";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderReminder } from "./render-reminder";

const props = (custom: ReminderEmailProps["custom"], over: Partial<ReminderEmailProps> = {}): ReminderEmailProps => ({
  ...REMINDER_SAMPLE,
  template: "initial",
  tone: 1,
  bankTransfer: [
    { currency: "USD", lines: [{ label: "IBAN", shown: "DE89 3704", copy: "DE893704" }], reference: "SAMPLE-1001" },
  ],
  custom,
  ...over,
});

describe("a reminder in the user's own words", () => {
  it("sends their subject and paragraphs with the values filled in, and the statement, links and footer", async () => {
    const out = await renderReminder(
      props(
        {
          subject: "Open invoices for {debtorName}: {total}",
          body: "Dear {contactName},\n\nour records show **{total}** open since {oldestDueDate} ({daysOverdue}).\nThanks!\n\n{payButton}\n\nSee [our terms](https://acme.test/terms).\n\n{signature}",
        },
        { contactName: "Ann" },
      ),
    );
    expect(out.subject).toBe("Open invoices for John Doe: $1,250.00");
    expect(out.html).toContain("Dear Ann,");
    expect(out.html).toContain("<strong>$1,250.00</strong>");
    expect(out.html.replaceAll("<!-- -->", "")).toContain("open since Nov 30, 2026 (10 days).<br/>Thanks!");
    expect(out.html).toContain('href="https://acme.test/terms"');
    // The statement goes after the first paragraph when not placed; the "I've paid" line with it.
    expect(out.html.indexOf("SAMPLE-1001")).toBeGreaterThan(out.html.indexOf("Dear Ann,"));
    expect(out.html.indexOf("SAMPLE-1001")).toBeLessThan(out.html.lastIndexOf("our records show"));
    expect(out.html).toContain("data-paid");
    expect(out.html).toContain("data-pay");
    // Not placed: no bank details, no portal link; the footer and its opt-out always.
    expect(out.html).not.toContain("data-bank");
    expect(out.html).not.toContain("data-portal");
    expect(out.html).toContain("https://example.com/u/sample-opt-out-link");
    expect(out.html).toContain("Jane Smith");
    expect(out.text).toContain("Dear Ann,");
  });

  it("escapes what the user typed and what the values hold", async () => {
    const out = await renderReminder(
      props(
        { subject: "Hi {debtorName}", body: "Hello {debtorName} & **co** <3\n\n{statement}" },
        { receiverName: '<img src=x onerror="alert(1)">' },
      ),
    );
    expect(out.html).not.toContain("<img src=x");
    expect(out.html).toContain("&lt;img src=x");
    expect(out.subject).toBe('Hi <img src=x onerror="alert(1)">');
  });

  it("falls back to Dunly's text for a stored text that no longer parses", async () => {
    const out = await renderReminder(props({ subject: "x\ny", body: "{nope}" }));
    expect(out.subject).toBe(
      "Friendly reminder: invoice SAMPLE-1001 for $1,250.00".replace("invoice SAMPLE-1001 for", "2 invoices,"),
    );
  });

  it("renders Dunly's own text as the editor starts it, and the longest body", async () => {
    const out = await renderReminder(props(dunlyStepText("final-notice", 3)));
    expect(out.html).toContain("data-bank");
    expect(out.html).toContain("data-portal");
    const long = await renderReminder(props({ subject: "s", body: "word ".repeat(BODY_MAX / 5 - 1) }));
    expect(long.html).toContain("SAMPLE-1001");
  });
});
