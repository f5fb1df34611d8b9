import { describe, expect, it } from "vitest";
import { TEMPLATE_IDS, type TemplateId } from "../app/domain/presets";
import { TONES, type Tone } from "../app/domain/strategies";
import { ANNOUNCING_REPEATS, REPEAT } from "../tests/support/email-fixtures";
import { formatDueDate, type ReminderEmailProps, safeHttpsUrl, safeHttpUrl } from "./reminder";
import {
  FOOTER_COPY,
  type Line,
  OPT_OUT_COPY,
  PAY_COPY,
  PLACEHOLDERS,
  placeholdersOf,
  REMINDER_COPY,
  REQUIRED_PLACEHOLDERS,
  resolveCopy,
  TONE_FRAME,
} from "./reminder-copy";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderReminder } from "./render-reminder";

const base = (template: TemplateId, tone: Tone, over: Partial<ReminderEmailProps> = {}): ReminderEmailProps => ({
  ...REMINDER_SAMPLE,
  template,
  tone,
  ...over,
});

const combos = TEMPLATE_IDS.flatMap((template) => TONES.map((tone) => [template, tone] as const));

/** Anything else that speaks of reminders to come: a new sentence must be caught too. */
const ANY_MORE = /further reminders|more reminders|reminders (will|are going to|continue)|regularly|reminders pause/i;

/** The <title> of an e-mail's HTML, its entities decoded. */
function titleOf(html: string): string | undefined {
  const title = html.match(/<title>([^<]*)<\/title>/)?.[1];
  return title
    ?.replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** Every string of copy, each alternative separately. */
function allCopy(): string[] {
  const lines: Line[] = [
    FOOTER_COPY,
    OPT_OUT_COPY.question,
    OPT_OUT_COPY.link,
    PAY_COPY.button,
    PAY_COPY.paidQuestion,
    PAY_COPY.paidQuestionOnce,
    PAY_COPY.paidLink,
  ];
  for (const frame of Object.values(TONE_FRAME)) lines.push(frame.greeting, frame.signOff);
  for (const byTone of Object.values(REMINDER_COPY))
    for (const copy of Object.values(byTone)) lines.push(copy.subject, copy.heading, ...copy.paragraphs);
  return lines.flatMap((line) => (typeof line === "string" ? [line] : [...line]));
}

// Threats, legal claims, invented charges and insults: not allowed in any tone.
const BANNED =
  /\b(lawsuits?|sue|sued|suing|legal|courts?|fees?|interest|police|arrest\w*|penalt\w*|collections?|debt collectors?|credit (score|rating|report)|attorneys?|lawyers?|consequences?|jail|prison|late charges?|idiot\w*|stupid|liars?|shame\w*)\b/i;

describe("renderReminder", () => {
  it.each(combos)("renders %s with tone %i", async (template, tone) => {
    const { subject, html, text } = await renderReminder(base(template, tone, { invoiceNumber: "INV-7" }));
    expect(subject.trim()).not.toBe("");
    for (const out of [html, text]) {
      expect(out).toContain("$1,250.00");
      expect(out).toContain("John Doe");
      expect(out).toContain("December 31, 2026");
      expect(out).toContain("INV-7");
      expect(out).toContain("Jane Smith");
      expect(out).toContain("jane@example.com");
      expect(out).toContain("on behalf of Jane Smith");
    }
    expect(html).toContain("Amount due:");
    // No reminder has an invoice link (docs/architecture.md §13: the preview showed one no e-mail had).
    for (const out of [html, text]) expect(out).not.toContain("View invoice");
    expect(text).not.toMatch(BANNED);
    // Its document title is its subject; it says it can be read in dark mode.
    expect(titleOf(html)).toBe(subject);
    expect(html).toContain('<meta name="color-scheme" content="light dark"');
    expect(html).toContain('<meta name="supported-color-schemes" content="light dark"');
    expect(html).toContain("prefers-color-scheme: dark");
  });

  it.each(combos)("the sample (%s, tone %i) shows no invoice, and its title is its subject", async (template, tone) => {
    for (const repeats of [true, false]) {
      const { subject, html, text } = await renderReminder(base(template, tone, { repeats }));
      for (const out of [subject, html, text]) {
        expect(out).not.toContain("View invoice");
        expect(out).not.toContain("INV-");
        expect(out).not.toMatch(/invoice/i);
      }
      expect(titleOf(html)).toBe(subject);
      expect(html).toContain('<meta name="color-scheme" content="light dark"');
    }
  });

  it("has no invoice link, whatever a caller passes", async () => {
    const props = { ...base("initial", 1), invoiceLink: "https://example.com/invoice/7" } as ReminderEmailProps;
    const { html, text } = await renderReminder(props);
    for (const out of [html, text]) {
      expect(out).not.toContain("View invoice");
      expect(out).not.toContain("example.com/invoice");
    }
  });

  it.each(combos)(
    "a one-time reminder (%s, tone %i) announces no further reminders; a repeating one says what its copy says",
    async (template, tone) => {
      const once = await renderReminder(base(template, tone, { repeats: false }));
      for (const out of [once.subject, once.html, once.text]) {
        expect(out).not.toMatch(REPEAT);
        expect(out).not.toMatch(ANY_MORE);
      }
      // The "I've paid" line is still there, without reminders to pause.
      expect(once.text).toContain(`Already paid? Let Jane Smith know: I've paid <${REMINDER_SAMPLE.paidUrl}>`);
      // Nothing else is lost: the other paragraphs are all there.
      const repeating = await renderReminder(base(template, tone, { repeats: true }));
      const copy = resolveCopy(template, tone, { amount: "$1,250.00" });
      const kept = resolveCopy(template, tone, { amount: "$1,250.00" }, { repeats: false });
      expect(kept.paragraphs.length).toBeGreaterThan(0);
      for (const paragraph of kept.paragraphs) expect(copy.paragraphs.join(" ")).toContain(paragraph);
      expect(repeating.text.length).toBeGreaterThan(once.text.length);
      expect(repeating.text).toContain("know and the reminders pause: I've paid");
      // A repeating reminder whose copy announces more says so in the rendered HTML and text.
      const announcement = copy.paragraphs.join(" ").match(REPEAT)?.[0];
      if (announcement) {
        expect(repeating.html).toContain(announcement);
        expect(repeating.text).toContain(announcement);
      }
      // Without `repeats` a reminder repeats (every schedule but 'now' does).
      expect((await renderReminder(base(template, tone))).text).toBe(repeating.text);
    },
  );

  it("the repeating copy does announce more reminders (so the one-time test above can fail)", async () => {
    const announced = combos.filter(([template, tone]) =>
      REPEAT.test(resolveCopy(template, tone, { amount: "$1.00" }).paragraphs.join(" ")),
    );
    // Every Aggressive template and the Standard single reminder.
    expect(announced).toEqual(expect.arrayContaining([...ANNOUNCING_REPEATS]));
    const weekly = await renderReminder(base("single", 2, { repeats: true }));
    for (const out of [weekly.html, weekly.text]) {
      expect(out).toContain("Reminders will be sent regularly until the balance is paid.");
    }
    const once = await renderReminder(base("single", 2, { repeats: false }));
    for (const out of [once.html, once.text]) expect(out).not.toContain("Reminders will be sent regularly");
  });

  it("escapes user-provided values in the HTML", async () => {
    const evil = `<script>alert(1)</script> & "Co"`;
    const { html } = await renderReminder(
      base("initial", 1, {
        receiverName: evil,
        senderName: `<img src=x onerror=alert(1)>`,
        invoiceNumber: "<b>INV</b>",
        senderCompany: { name: "<i>Acme</i>", address: "<u>1 Main St</u>" },
      }),
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toMatch(/<(b|i|u)>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; ");
  });

  it.each([null, undefined, "", "2027-02-30", "soon"])("renders without a due date (%s)", async (dueDate) => {
    for (const [template, tone] of combos) {
      const { subject, html, text } = await renderReminder(base(template, tone, { dueDate, invoiceNumber: null }));
      for (const out of [subject, html, text]) expect(out).not.toMatch(/undefined|null|Invalid|NaN|\{\w+\}/);
      expect(text).not.toContain("Due date:");
      expect(text).not.toContain("due on");
      expect(text).not.toContain("Invoice:");
      expect(text).not.toContain("View invoice");
      expect(text).toContain("$1,250.00");
    }
  });

  it("shows the organization's name and address for a company sender", async () => {
    const { html, text } = await renderReminder(
      base("single", 2, {
        senderName: "Acme Inc.",
        senderCompany: { name: "Acme Inc.", address: "1 Main St\nSpringfield, IL 62701" },
      }),
    );
    expect(text).toContain("Acme Inc.");
    expect(text).toContain("1 Main St");
    expect(text).toContain("Springfield, IL 62701");
    expect(text).toContain("on behalf of Acme Inc.");
    // The name is shown once when it is both the sender and the company.
    expect(html.match(/Acme Inc\./g)?.length).toBe(4); // signature, the "I've paid" line, two in the footer
  });

  it("keeps the subject on one line whatever the values contain", async () => {
    for (const [template, tone] of combos) {
      const { subject } = await renderReminder(
        base(template, tone, {
          receiverName: "John\r\nBcc: x@evil.test",
          senderName: "Jane\r\nSmith",
          invoiceNumber: "INV\r\n7\u2028",
        }),
      );
      expect(subject).not.toMatch(/[\r\n\u2028\u2029]/);
      expect(subject).toContain("INV 7");
    }
  });

  it("shows hostile names without line breaks, bidi or zero-width characters, and the sender's without addresses or links", async () => {
    const { html, text, subject } = await renderReminder(
      base("single", 2, {
        receiverName: "Jo\u200bhn\u202e Doe\r\nBcc: x",
        senderName: "\u2066Jane\u200d Smith\u2069 <pay@evil.test> https://evil.test/pay www.evil.test evil.test",
        senderCompany: {
          name: "Acme\ufeff Inc. (acme-billing.com)",
          address: "1 Main\u202e St\r\nSpringfield\u200f\u2028evil.test",
        },
      }),
    );
    // (The HTML's hidden preview line pads with zero-width characters of its own.)
    for (const out of [text, subject]) {
      expect(out).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/);
    }
    for (const out of [html, text]) {
      expect(out).toContain("John Doe Bcc: x");
      expect(out).toContain("on behalf of Jane Smith.");
      expect(out).toContain("Acme Inc.");
      expect(out).not.toContain("acme-billing.com");
      expect(out).not.toContain("pay@evil.test");
      expect(out).not.toContain("https://evil.test");
      expect(out).not.toContain("www.evil.test");
      expect(out).toContain("1 Main St");
      expect(out).toContain("Springfield");
    }
    // The address is the user's own text, not a name: its lines stay, cleaned.
    expect(text).toContain("evil.test");
  });

  it("falls back to the sender's address when the sender name is empty", async () => {
    const { text } = await renderReminder(base("single", 1, { senderName: "" }));
    expect(text).toContain("on behalf of jane@example.com");
  });

  it("greets without a name when the debtor name is blank", async () => {
    const { text } = await renderReminder(base("initial", 1, { receiverName: "  " }));
    expect(text).toMatch(/^Hi,/m);
  });

  it("ends every reminder with a visible opt-out link, in the HTML and the plain text", async () => {
    const url = "https://dunly.app/u/0123456789abcdef0123456789abcdef.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmUtc2ln";
    for (const [template, tone] of combos) {
      const { html, text } = await renderReminder(base(template, tone, { unsubscribeUrl: url }));
      expect(html).toMatch(new RegExp(`<a [^>]*href="${url.replace(/[.]/g, "\\.")}"[^>]*>Stop them here</a>`));
      expect(html).toContain("Don&#x27;t want these reminders?");
      expect(text).toContain(`Don't want these reminders? Stop them here <${url}>.`);
    }
  });

  it("shows no opt-out line without a link, and never links a non-http one", async () => {
    for (const unsubscribeUrl of [null, undefined, "", "javascript:alert(1)", "not a url"]) {
      const { html, text } = await renderReminder(base("initial", 1, { unsubscribeUrl }));
      expect(html).not.toContain("Stop them here");
      expect(text).not.toContain("Stop them here");
      expect(html).not.toContain("javascript:");
    }
  });

  const PAY = "https://pay.example.com/checkout/jane?ref=INV-7&x=1";
  const PAID = "https://dunly.app/p/0123456789abcdef0123456789abcdef.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmUtc2ln";
  const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  it("carries 'Pay now' to the payment page and the \"I've paid\" link, in the HTML and the plain text of every template and tone", async () => {
    for (const [template, tone] of combos) {
      const { html, text } = await renderReminder(base(template, tone, { payUrl: PAY, paidUrl: PAID }));
      const payHref = PAY.replaceAll("&", "&amp;");
      expect(html, `${template} ${tone}`).toMatch(
        new RegExp(`<a [^>]*href="${escapeRe(payHref)}"[^>]*>[\\s\\S]*?Pay now[\\s\\S]*?</a>`),
      );
      expect(html).toMatch(new RegExp(`<a [^>]*href="${escapeRe(PAID)}"[^>]*>I&#x27;ve paid</a>`));
      expect(html).toContain("Already paid? Let Jane Smith know and the reminders pause:");
      expect(text).toContain(`Pay now <${PAY}>`);
      expect(text).toContain(`Already paid? Let Jane Smith know and the reminders pause: I've paid <${PAID}>`);
      expect(text).not.toMatch(BANNED);
      // A one-time reminder's line speaks of no reminders to pause.
      const once = await renderReminder(base(template, tone, { payUrl: PAY, paidUrl: PAID, repeats: false }));
      expect(once.text).toContain(`Pay now <${PAY}>`);
      expect(once.text).toContain(`Already paid? Let Jane Smith know: I've paid <${PAID}>`);
    }
  });

  it("shows no 'Pay now' without a payment page, and only links an https one; the \"I've paid\" link stays", async () => {
    for (const payUrl of [null, undefined, "", "http://pay.example.com/", "javascript:alert(1)", "not a url"]) {
      for (const [template, tone] of combos) {
        const { html, text } = await renderReminder(base(template, tone, { payUrl, paidUrl: PAID }));
        expect(html).not.toContain("Pay now");
        expect(text).not.toContain("Pay now");
        expect(html).not.toContain("javascript:");
        expect(text).toContain(`I've paid <${PAID}>`);
      }
    }
  });

  it('shows no "I\'ve paid" line without a link (the in-app preview without a sample), and never links a non-http one', async () => {
    for (const paidUrl of [null, undefined, "", "javascript:alert(1)"]) {
      const { html, text } = await renderReminder(base("initial", 1, { paidUrl }));
      expect(html).not.toContain("ve paid");
      expect(text).not.toContain("I've paid");
      expect(html).not.toContain("javascript:");
    }
  });

  it("shows the amount in the debtor's currency and the invoice number", async () => {
    const { subject, html, text } = await renderReminder(
      base("follow-up", 2, { amountCents: 98765, currency: "EUR", invoiceNumber: "RE-2026/42" }),
    );
    for (const out of [html, text]) {
      expect(out).toContain("€987.65");
      expect(out).toContain("RE-2026/42");
    }
    expect(text).toContain("Invoice: RE-2026/42");
    expect(text).not.toContain("$");
    expect(subject).toContain("RE-2026/42");
    expect(subject).toContain("€987.65");
    const gbp = await renderReminder(base("single", 3, { amountCents: 1000, currency: "GBP", invoiceNumber: null }));
    expect(gbp.text).toContain("£10.00");
    expect(gbp.text).not.toContain("Invoice:");
  });

  it("the preview sample shows 'Pay now' and the \"I've paid\" link, and no invoice it does not have", async () => {
    const { html, text } = await renderReminder(base("initial", 1));
    expect(REMINDER_SAMPLE.payUrl).toMatch(/^https:\/\//);
    expect(text).toContain(`Pay now <${REMINDER_SAMPLE.payUrl}>`);
    expect(text).toContain(`I've paid <${REMINDER_SAMPLE.paidUrl}>`);
    expect(html).not.toContain("INV-");
    expect(text).not.toContain("Invoice:");
    expect(text).not.toContain("View invoice");
  });
});

describe("reminder copy", () => {
  it("gives the five templates distinct subjects in every tone", () => {
    for (const invoiceNumber of ["INV-1", null]) {
      for (const tone of TONES) {
        const subjects = TEMPLATE_IDS.map((t) => resolveCopy(t, tone, { amount: "$1.00", invoiceNumber }).subject);
        expect(new Set(subjects).size).toBe(TEMPLATE_IDS.length);
      }
    }
  });

  it("changes with the tone", () => {
    for (const template of TEMPLATE_IDS) {
      const [polite, middle, aggressive] = TONES.map((tone) => resolveCopy(template, tone, { amount: "$1.00" }));
      expect(polite.paragraphs.join(" ")).not.toBe(aggressive.paragraphs.join(" "));
      expect(polite.paragraphs.join(" ")).not.toBe(middle.paragraphs.join(" "));
      expect(new Set([polite.subject, middle.subject, aggressive.subject]).size).toBe(3);
    }
  });

  it("escalates: only the final notice calls itself final, and Aggressive says reminders go on", () => {
    for (const tone of TONES) {
      for (const template of TEMPLATE_IDS) {
        const { subject } = resolveCopy(template, tone, { amount: "$1.00" });
        expect(/final/i.test(subject)).toBe(template === "final-notice");
      }
    }
    for (const template of TEMPLATE_IDS) {
      const body = resolveCopy(template, 3, { amount: "$1.00" }).paragraphs.join(" ");
      expect(body).toMatch(/reminders will (follow|continue)/i);
    }
  });

  it("contains no threats, legal claims, invented charges or insults", () => {
    for (const text of allCopy()) expect(text).not.toMatch(BANNED);
  });

  it("uses only known placeholders, and every last alternative only required ones", () => {
    for (const text of allCopy()) for (const name of placeholdersOf(text)) expect(PLACEHOLDERS).toContain(name);
    const lines: Line[] = [FOOTER_COPY, ...Object.values(TONE_FRAME).map((f) => f.greeting)];
    for (const byTone of Object.values(REMINDER_COPY))
      for (const copy of Object.values(byTone)) lines.push(copy.subject, copy.heading, ...copy.paragraphs);
    for (const line of lines) {
      const last = typeof line === "string" ? line : line[line.length - 1]!;
      for (const name of placeholdersOf(last)) expect(REQUIRED_PLACEHOLDERS).toContain(name);
    }
  });

  it("contains no HTML", () => {
    for (const text of allCopy()) expect(text).not.toMatch(/[<>&]/);
  });

  it("reads unknown tones as Polite and rejects unknown templates", () => {
    expect(resolveCopy("initial", 7, { amount: "$1.00" })).toEqual(resolveCopy("initial", 1, { amount: "$1.00" }));
    expect(() => resolveCopy("nope" as TemplateId, 1, { amount: "$1.00" })).toThrow(/Unknown reminder template/);
  });
});

describe("formatDueDate", () => {
  it("formats the calendar day without time-zone shifts", () => {
    expect(formatDueDate("2027-03-05")).toBe("March 5, 2027");
    expect(formatDueDate("2026-12-31")).toBe("December 31, 2026");
    expect(formatDueDate("2027-01-01")).toBe("January 1, 2027");
  });

  it("returns null for missing or impossible dates", () => {
    for (const value of [null, undefined, "", "2027-02-30", "2027-13-01", "03/05/2027", "2027-3-5"])
      expect(formatDueDate(value)).toBeNull();
  });
});

describe("safeHttpsUrl", () => {
  it("keeps only https links", () => {
    expect(safeHttpsUrl("https://example.com/pay")).toBe("https://example.com/pay");
    for (const value of ["http://example.com/", "javascript:alert(1)", "ftp://example.com/", "", null, undefined])
      expect(safeHttpsUrl(value)).toBeNull();
  });
});

describe("safeHttpUrl", () => {
  it("keeps http(s) links and drops everything else", () => {
    expect(safeHttpUrl("https://example.com/a")).toBe("https://example.com/a");
    expect(safeHttpUrl("http://example.com/")).toBe("http://example.com/");
    for (const value of ["javascript:alert(1)", "data:text/html,x", "not a url", "", null])
      expect(safeHttpUrl(value)).toBeNull();
  });
});
