import { describe, expect, it } from "vitest";
import { TEMPLATE_IDS, type TemplateId } from "../app/domain/presets";
import {
  type InvoiceFields,
  MAX_STATEMENT_LINES,
  type StatementLine,
  statementOf,
  statementTotals,
} from "../app/domain/statement";
import { TONES, type Tone } from "../app/domain/strategies";
import { ANNOUNCING_REPEATS, REPEAT } from "../tests/support/email-fixtures";
import {
  EmptyStatementError,
  formatDueDate,
  type ReminderEmailProps,
  reminderContent,
  safeHttpsUrl,
  safeHttpUrl,
} from "./reminder";
import {
  FOOTER_COPY,
  type Line,
  NOT_YET_DUE_COPY,
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

/** One open invoice of $1,250.00, due Dec 31, 2026 (the sample's today is December 10). */
const one = (over: Partial<StatementLine> = {}): StatementLine[] => [
  { number: "INV-7", dueOn: "2026-12-31", balanceCents: 125000, currency: "USD", ...over },
];

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
  for (const copies of [REMINDER_COPY, NOT_YET_DUE_COPY])
    for (const byTone of Object.values(copies))
      for (const copy of Object.values(byTone)) lines.push(copy.subject, copy.heading, ...copy.paragraphs);
  return lines.flatMap((line) => (typeof line === "string" ? [line] : [...line]));
}

// Threats, legal claims, invented charges and insults: not allowed in any tone.
const BANNED =
  /\b(lawsuits?|sue|sued|suing|legal|courts?|fees?|interest|police|arrest\w*|penalt\w*|collections?|debt collectors?|credit (score|rating|report)|attorneys?|lawyers?|consequences?|jail|prison|late charges?|idiot\w*|stupid|liars?|shame\w*)\b/i;

describe("renderReminder", () => {
  it.each(combos)("renders %s with tone %i", async (template, tone) => {
    const { subject, html, text } = await renderReminder(base(template, tone, { statement: one() }));
    expect(subject.trim()).not.toBe("");
    for (const out of [html, text]) {
      expect(out).toContain("$1,250.00");
      expect(out).toContain("John Doe");
      expect(out).toContain("Dec 31, 2026");
      expect(out).toContain("INV-7");
      expect(out).toContain("due in 21 days");
      expect(out).toContain("Jane Smith");
      expect(out).toContain("jane@example.com");
      expect(out).toContain("Sent by Jane Smith");
    }
    expect(html).toContain("Total due");
    // No reminder has an invoice link.
    for (const out of [html, text]) expect(out).not.toContain("View invoice");
    expect(text).not.toMatch(BANNED);
    // Its document title is its subject; it says it can be read in dark mode.
    expect(titleOf(html)).toBe(subject);
    expect(html).toContain('<meta name="color-scheme" content="light dark"');
    expect(html).toContain('<meta name="supported-color-schemes" content="light dark"');
    expect(html).toContain("prefers-color-scheme: dark");
  });

  it.each(combos)(
    "the sample (%s, tone %i) is a two-invoice statement, and its title is its subject",
    async (template, tone) => {
      for (const repeats of [true, false]) {
        const { subject, html, text } = await renderReminder(base(template, tone, { repeats }));
        expect(subject).toContain("2 invoices");
        expect(subject).toContain("$1,250.00");
        for (const out of [html, text]) {
          expect(out).not.toContain("View invoice");
          expect(out).toContain("SAMPLE-1001");
          expect(out).toContain("10 days overdue");
          expect(out).toContain("Invoice due Dec 31, 2026");
          expect(out).toContain("due in 21 days");
          expect(out).toContain("$750.00");
          expect(out).toContain("$500.00");
        }
        expect(titleOf(html)).toBe(subject);
        expect(html).toContain('<meta name="color-scheme" content="light dark"');
      }
    },
  );

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
        statement: one({ number: "<b>INV</b>" }),
        senderCompany: { name: "<i>Acme</i>", address: "<u>1 Main St</u>" },
      }),
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toMatch(/<(b|i|u)>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; ");
    expect(html).toContain("&lt;b&gt;INV&lt;/b&gt;");
  });

  it("renders one invoice without a number: no invoice number in the subject, 'Invoice due …' on its line", async () => {
    for (const [template, tone] of combos) {
      const { subject, html, text } = await renderReminder(base(template, tone, { statement: one({ number: null }) }));
      for (const out of [subject, html, text]) expect(out).not.toMatch(/undefined|null|Invalid|NaN|\{\w+\}/);
      expect(subject).not.toMatch(/invoice/i);
      expect(subject).toContain("$1,250.00");
      expect(text).toMatch(/Invoice due Dec 31, 2026 +Dec 31, 2026 +\$1,250\.00 +due in 21 days/);
      expect(text).toContain("due on Dec 31, 2026");
    }
  });

  it("is never rendered without an open invoice", async () => {
    expect(() => reminderContent(base("initial", 1, { statement: [] }))).toThrow(EmptyStatementError);
    await expect(renderReminder(base("single", 3, { statement: [] }))).rejects.toThrow(
      "A reminder needs at least one open invoice",
    );
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
    expect(text).toContain("Sent by Acme Inc.");
    // The name is shown once when it is both the sender and the company.
    expect(html.match(/Acme Inc\./g)?.length).toBe(3); // signature, the "I've paid" line, the footer
  });

  it("keeps the subject on one line whatever the values contain", async () => {
    for (const [template, tone] of combos) {
      const { subject } = await renderReminder(
        base(template, tone, {
          receiverName: "John\r\nBcc: x@evil.test",
          senderName: "Jane\r\nSmith",
          statement: one({ number: "INV\r\n7\u2028" }),
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
      expect(out).toContain("Sent by Jane Smith.");
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
    expect(text).toContain("Sent by jane@example.com");
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

  it("shows the amount in the invoice's currency and the invoice number", async () => {
    const { subject, html, text } = await renderReminder(
      base("follow-up", 2, { statement: one({ balanceCents: 98765, currency: "EUR", number: "RE-2026/42" }) }),
    );
    for (const out of [html, text]) {
      expect(out).toContain("€987.65");
      expect(out).toContain("RE-2026/42");
    }
    expect(text).toMatch(/RE-2026\/42 +Dec 31, 2026 +€987\.65 +due in 21 days/);
    expect(text).not.toContain("$");
    expect(subject).toContain("RE-2026/42");
    expect(subject).toContain("€987.65");
    const gbp = await renderReminder(
      base("single", 3, { statement: one({ balanceCents: 1000, currency: "GBP", number: null }) }),
    );
    expect(gbp.text).toContain("£10.00");
    expect(gbp.subject).not.toMatch(/invoice/i);
  });

  it("the preview sample shows 'Pay now', the \"I've paid\" link and its two invoices, no invoice link", async () => {
    const { html, text } = await renderReminder(base("initial", 1));
    expect(REMINDER_SAMPLE.payUrl).toMatch(/^https:\/\//);
    expect(text).toContain(`Pay now <${REMINDER_SAMPLE.payUrl}>`);
    expect(text).toContain(`I've paid <${REMINDER_SAMPLE.paidUrl}>`);
    expect(text).toMatch(/SAMPLE-1001 +Nov 30, 2026 +\$750\.00 +10 days overdue/);
    expect(text).toMatch(/Total due +\$1,250\.00/);
    expect(html).not.toContain("INV-");
    expect(text).not.toContain("View invoice");
  });
});

/** An invoice as stored, for statementOf: open and unpaid unless told. */
const invoice = (number: string | null, dueOn: string, amountCents: number, over: Partial<InvoiceFields> = {}) => ({
  number,
  dueOn,
  amountCents,
  paidCents: 0,
  currency: "USD",
  status: "open",
  ...over,
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A line of the text part's statement table: its invoice, due date, balance and status, in columns. */
const textRow = (...cells: string[]) => new RegExp(cells.map(escapeRegExp).join(" +"));

/** An HTML table row's cells, in order (React escapes & and < in them; none of these have any). */
const htmlRow = (...cells: string[]) =>
  new RegExp(`<tr>${cells.map((c) => `<td[^>]*>${escapeRegExp(c)}</td>`).join("")}`);

describe("Statements: one invoice, twelve invoices, two currencies, a disputed invoice left out; every template and tone", () => {
  // The sample's today: Dec 10, 2026.
  it.each(combos)(
    "one invoice (%s, tone %i): its number and amount in the subject, its line and the total",
    async (template, tone) => {
      const statement = statementOf([invoice("INV-1", "2026-11-30", 42000, { paidCents: 2000 })]);
      for (const repeats of [true, false]) {
        const { subject, html, text } = await renderReminder(base(template, tone, { statement, repeats }));
        expect(subject).toContain("invoice INV-1");
        expect(subject).toContain("$400.00");
        expect(subject).not.toMatch(/\binvoices\b/);
        expect(text).toMatch(textRow("INV-1", "Nov 30, 2026", "$400.00", "10 days overdue"));
        expect(text).toMatch(textRow("Total due", "$400.00"));
        expect(html).toMatch(htmlRow("INV-1", "Nov 30, 2026", "$400.00", "10 days overdue"));
        expect(html).toMatch(/Total due<\/td><td[^>]*>\$400\.00<\/td>/);
        // The copy names the one invoice's amount and due date, as before statements.
        expect(text).toContain("$400.00, due on Nov 30, 2026");
        expect(text).not.toContain("listed below");
        for (const out of [subject, html, text]) expect(out).not.toMatch(/undefined|null|NaN|\{\w+\}/);
      }
    },
  );

  const twelve = statementOf(
    Array.from({ length: 12 }, (_, i) =>
      invoice(`T-${String(i + 1).padStart(2, "0")}`, `2026-${String(i + 1).padStart(2, "0")}-15`, (i + 1) * 1000),
    ).reverse(),
  );

  it.each(combos)(
    "twelve invoices (%s, tone %i): every line, oldest due first, and the total; one reminder",
    async (template, tone) => {
      const { subject, html, text } = await renderReminder(base(template, tone, { statement: twelve }));
      // The count and the total, not one invoice's number.
      expect(subject).toContain("12 invoices");
      expect(subject).toContain("$780.00");
      expect(subject).not.toContain("T-");
      expect(text).toContain("$780.00 for the 12 invoices listed below");
      expect(text).not.toContain("due on");
      expect(text).toMatch(textRow("T-01", "Jan 15, 2026", "$10.00", "329 days overdue"));
      expect(text).toMatch(textRow("T-11", "Nov 15, 2026", "$110.00", "25 days overdue"));
      expect(text).toMatch(textRow("T-12", "Dec 15, 2026", "$120.00", "due in 5 days"));
      expect(html).toMatch(htmlRow("T-12", "Dec 15, 2026", "$120.00", "due in 5 days"));
      expect(text).toMatch(textRow("Total due", "$780.00"));
      // Each listed once, oldest due first.
      const order = [...text.matchAll(/\bT-(\d\d)\b/g)].map((m) => m[1]);
      expect(order).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, "0")));
      expect(text).not.toContain("more invoice");
    },
  );

  const twoCurrencies = statementOf([
    invoice("U-1", "2026-12-01", 10000),
    invoice("E-1", "2026-12-10", 5000, { currency: "EUR" }),
  ]);

  it.each(combos)(
    "two currencies (%s, tone %i): each line in its currency, a total per currency",
    async (template, tone) => {
      const { subject, html, text } = await renderReminder(base(template, tone, { statement: twoCurrencies }));
      expect(subject).toContain("2 invoices");
      expect(subject).toContain("$100.00 + €50.00");
      expect(text).toContain("$100.00 + €50.00 for the 2 invoices listed below");
      expect(text).toMatch(textRow("U-1", "Dec 1, 2026", "$100.00", "9 days overdue"));
      expect(text).toMatch(textRow("E-1", "Dec 10, 2026", "€50.00", "due today"));
      expect(text).toMatch(textRow("Total due in USD", "$100.00"));
      expect(text).toMatch(textRow("Total due in EUR", "€50.00"));
      expect(html).toMatch(/Total due in USD<\/td><td[^>]*>\$100\.00<\/td>/);
      expect(html).toMatch(/Total due in EUR<\/td><td[^>]*>€50\.00<\/td>/);
      // Never one sum over two currencies.
      expect(text).not.toContain("$150.00");
    },
  );

  const withDisputed = statementOf([
    invoice("OPEN-1", "2026-11-01", 20000, { paidCents: 5000 }),
    invoice("DISPUTED-1", "2026-10-01", 99900, { status: "disputed" }),
    invoice("PAID-1", "2026-09-01", 88800, { status: "paid", paidCents: 88800 }),
    invoice("VOID-1", "2026-08-01", 77700, { status: "void" }),
    invoice(null, "2026-12-20", 10000),
  ]);

  it.each(combos)("a disputed invoice left out (%s, tone %i), and paid and void ones", async (template, tone) => {
    expect(withDisputed.map((l) => l.number)).toEqual(["OPEN-1", null]);
    const { subject, html, text } = await renderReminder(base(template, tone, { statement: withDisputed }));
    expect(subject).toContain("2 invoices");
    expect(subject).toContain("$250.00");
    for (const out of [subject, html, text]) {
      for (const gone of ["DISPUTED-1", "PAID-1", "VOID-1", "$999.00", "$888.00", "$777.00"])
        expect(out).not.toContain(gone);
    }
    expect(text).toMatch(textRow("OPEN-1", "Nov 1, 2026", "$150.00", "39 days overdue"));
    expect(text).toMatch(textRow("Invoice due Dec 20, 2026", "Dec 20, 2026", "$100.00", "due in 10 days"));
    expect(text).toMatch(textRow("Total due", "$250.00"));
  });

  it("lists at most MAX_STATEMENT_LINES invoices, then how many more, the totals still over all of them", async () => {
    const many = statementOf(
      Array.from({ length: 120 }, (_, i) =>
        invoice(`M-${String(i + 1).padStart(3, "0")}`, `2026-${String((i % 12) + 1).padStart(2, "0")}-01`, 100, {
          currency: i % 2 ? "EUR" : "USD",
        }),
      ),
    );
    // As the renderer gets it from anyone (all lines), and as the engine's query gives it (the
    // first lines and the totals over all of them).
    const engine = { statement: many.slice(0, MAX_STATEMENT_LINES), statementTotals: statementTotals(many) };
    for (const over of [{ statement: many }, engine]) {
      for (const [template, tone] of combos) {
        const { subject, html, text } = await renderReminder(base(template, tone, over));
        expect(subject).toContain("120 invoices");
        expect(subject).toContain("$60.00 + €60.00");
        expect([...text.matchAll(/\bM-\d{3}\b/g)]).toHaveLength(MAX_STATEMENT_LINES);
        expect([...html.matchAll(/>M-\d{3}</g)]).toHaveLength(MAX_STATEMENT_LINES);
        for (const out of [html, text]) expect(out).toContain("and 70 more invoices, included in the total");
        expect(text).toMatch(textRow("Total due in USD", "$60.00"));
        expect(text).toMatch(textRow("Total due in EUR", "€60.00"));
        expect(html.length).toBeLessThan(100_000);
      }
    }
    const oneMore = statementOf(
      Array.from({ length: MAX_STATEMENT_LINES + 1 }, (_, i) => invoice(`X-${i}`, "2026-12-01", 100)),
    );
    expect((await renderReminder(base("initial", 1, { statement: oneMore }))).text).toContain(
      "and 1 more invoice, included in the total",
    );
  });
});

describe("The e-mail tells the truth about time", () => {
  // The sample's today: Dec 10, 2026.
  /** What a reminder before its due date must not say. */
  const NOT_YET = [/overdue/i, /as soon as possible/i, /past due/i, /Final notice/i, /\blate\b/i];
  const notYetDue = [
    one(),
    one({ number: null }),
    statementOf([invoice("N-1", "2026-12-11", 1000), invoice("N-2", "2027-01-20", 2000)]),
  ];

  it.each(combos)(
    "before the due date (%s, tone %i) it says when payment is due, never overdue",
    async (template, tone) => {
      for (const statement of notYetDue) {
        for (const repeats of [true, false]) {
          const { subject, html, text } = await renderReminder(base(template, tone, { statement, repeats }));
          for (const out of [subject, html, text]) for (const word of NOT_YET) expect(out).not.toMatch(word);
          expect(text).toMatch(/is due on (Dec 31, 2026|the dates shown)/);
        }
      }
      const { subject, text } = await renderReminder(base(template, tone, { statement: one() }));
      expect(text).toContain("$1,250.00 is due on Dec 31, 2026");
      // Not even a final notice calls itself final before the due date.
      expect(subject).not.toMatch(/final/i);
    },
  );

  it.each(combos)("on the due date (%s, tone %i) it says it is due, not overdue", async (template, tone) => {
    const { subject, html, text } = await renderReminder(
      base(template, tone, { statement: one({ dueOn: "2026-12-10" }) }),
    );
    for (const out of [subject, html, text]) for (const word of NOT_YET) expect(out).not.toMatch(word);
    expect(text).toContain("is due on Dec 10, 2026");
    expect(text).toContain("due today");
  });

  it.each(combos)("once overdue (%s, tone %i) it says how many days", async (template, tone) => {
    for (const [dueOn, late] of [
      ["2026-12-09", "1 day overdue"],
      ["2026-11-10", "30 days overdue"],
    ] as const) {
      const props = base(template, tone, { statement: one({ dueOn }) });
      const { text } = await renderReminder(props);
      expect(text).toContain(late);
      // In the copy itself, not only on the statement's line.
      expect(reminderContent(props).paragraphs[0]).toContain(late);
      expect(text).not.toMatch(/\b1 days\b/);
    }
    // Several invoices: the most any is overdue, whatever the others.
    const several = statementOf([invoice("S-1", "2026-12-20", 1000), invoice("S-2", "2026-11-10", 2000)]);
    const paragraph = reminderContent(base(template, tone, { statement: several })).paragraphs[0];
    expect(paragraph).toContain("2 invoices listed below");
    expect(paragraph).toMatch(/the oldest (is )?(now )?30 days overdue/);
  });

  it("the wording before the due date has nothing late or escalating in it", () => {
    for (const byTone of Object.values(NOT_YET_DUE_COPY))
      for (const copy of Object.values(byTone))
        for (const line of [copy.subject, copy.heading, ...copy.paragraphs])
          for (const text of typeof line === "string" ? [line] : line) {
            for (const word of NOT_YET) expect(text).not.toMatch(word);
            expect(text).not.toMatch(/final|outstanding|still (open|unpaid)|despite|previous|earlier|daysOverdue/i);
          }
  });
});

/**
 * Whether a line of copy names exactly the invoice count and the total among its placeholders: the
 * wording for several invoices, which must not name what only one invoice has (its number, how late).
 */
function isCountAndTotalOnly(placeholders: readonly string[]): boolean {
  const distinct = new Set(placeholders);
  return distinct.size === 2 && distinct.has("amount") && distinct.has("invoiceCount");
}

describe("reminder copy", () => {
  it("gives the five templates distinct subjects in every tone", () => {
    const variants = [{ invoiceNumber: "INV-1" }, { invoiceNumber: null }, { invoiceCount: "3 invoices" }];
    for (const values of variants) {
      for (const tone of TONES) {
        const subjects = TEMPLATE_IDS.map((t) => resolveCopy(t, tone, { amount: "$1.00", ...values }).subject);
        expect(new Set(subjects).size).toBe(TEMPLATE_IDS.length);
      }
    }
  });

  it("has a several-invoices alternative for every subject and first paragraph, before the last one", () => {
    for (const [template, tone] of combos) {
      for (const copy of [REMINDER_COPY[template][tone], NOT_YET_DUE_COPY[template][tone]]) {
        for (const line of [copy.subject, copy.paragraphs[0]!]) {
          if (typeof line === "string") throw new Error(`${template} ${tone}: a single line, no alternatives`);
          // The first alternative that names the count and the total, and nothing only one invoice has (nor how late).
          const counted = line.findIndex((text) => isCountAndTotalOnly(placeholdersOf(text)));
          expect(counted, `${template} ${tone}`).toBeGreaterThan(0);
          expect(counted).toBeLessThan(line.length - 1);
        }
      }
      for (const timing of ["overdue", "not-yet-due"] as const) {
        const several = resolveCopy(template, tone, { amount: "$1,234.00", invoiceCount: "3 invoices" }, { timing });
        expect(several.subject).toContain("3 invoices");
        expect(several.subject).toContain("$1,234.00");
        expect(several.paragraphs[0]).toContain("3 invoices listed below");
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
    for (const copies of [REMINDER_COPY, NOT_YET_DUE_COPY])
      for (const byTone of Object.values(copies))
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
    expect(formatDueDate("2027-03-05")).toBe("Mar 5, 2027");
    expect(formatDueDate("2026-12-31")).toBe("Dec 31, 2026");
    expect(formatDueDate("2027-01-01")).toBe("Jan 1, 2027");
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

describe("a first reminder speaks of no earlier one", () => {
  const EARLIER = /previous reminders|earlier reminder|several reminders|another reminder|following up|follow-up/i;
  const values = { amount: "$1,200.00", dueDate: "Nov 8, 2026", invoiceNumber: "INV-101", daysOverdue: "20 days" };
  it("in every template and tone, while the firmness stays", () => {
    for (const template of TEMPLATE_IDS) {
      for (const tone of TONES) {
        const usual = resolveCopy(template, tone, values);
        const first = resolveCopy(template, tone, values, { firstContact: true });
        const text = [first.subject, first.heading, ...first.paragraphs].join("\n");
        expect(text, `${template} ${tone}`).not.toMatch(EARLIER);
        // What did not speak of earlier reminders reads as before.
        const usualText = [usual.subject, usual.heading, ...usual.paragraphs].join("\n");
        if (!EARLIER.test(usualText)) expect(first).toEqual(usual);
        // Sentences keep a capital letter.
        for (const p of first.paragraphs) expect(p.charAt(0), p).toMatch(/[A-Z0-9$€£"]/);
      }
    }
    expect(resolveCopy("second-follow-up", 2, values, { firstContact: true }).paragraphs[0]).toBe(
      "The payment of $1,200.00, due on Nov 8, 2026, is still outstanding, now 20 days overdue.",
    );
  });
});

describe("bank transfer", () => {
  it("shows the account in the statement's currency with the reference to quote, on one line each", async () => {
    const { html, text } = await renderReminder(
      base("initial", 1, {
        bankTransfer: [
          {
            currency: "USD",
            lines: [
              { label: "Account holder", shown: "Ada <b>Lovelace</b>\nLtd", copy: "Ada Lovelace" },
              { label: "IBAN", shown: "DE89 3704 0044 0532 0130 00", copy: "DE89370400440532013000" },
            ],
            reference: "INV-101, INV-107",
          },
        ],
      }),
    );
    expect(text).toContain("Pay by bank transfer");
    expect(text).toContain("IBAN: DE89 3704 0044 0532 0130 00");
    expect(text).toContain("Reference: INV-101, INV-107");
    // Typed by the user: escaped, on one line.
    expect(html).not.toContain("<b>Lovelace</b>");
    expect(text).toContain("Account holder: Ada <b>Lovelace</b> Ltd");
    const without = await renderReminder(base("initial", 1));
    expect(without.text).not.toContain("bank transfer");
  });
});

describe("invoices the debtor said they paid", () => {
  it("are named apart, outside the total, one or several", async () => {
    const line = (number: string, cents: number) => ({
      number,
      dueOn: "2026-11-01",
      balanceCents: cents,
      currency: "USD",
    });
    const one = await renderReminder(
      base("initial", 1, { senderName: "Sally Sender", claimedPaid: [line("INV-7", 60050)] }),
    );
    expect(one.text).toContain(
      "You told us you have paid INV-7 ($600.50, due Nov 1, 2026). Sally Sender is checking it, so it is not in the total above.",
    );
    const two = await renderReminder(
      base("initial", 1, { senderName: "Sally Sender", claimedPaid: [line("INV-7", 100), line("INV-8", 200)] }),
    );
    expect(two.text).toContain("Sally Sender is checking them, so they are not in the total above.");
    const none = await renderReminder(base("initial", 1));
    expect(none.text).not.toContain("You told us you have paid");
  });
});
