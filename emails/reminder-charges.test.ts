import { describe, expect, it } from "vitest";
import { formatDate } from "../app/domain/dates";
import { translator } from "../app/domain/i18n";
import { CHARGE_COPY } from "../app/domain/i18n/charges";
import { debtorLocale, LANGUAGES, type Language } from "../app/domain/languages";
import { type ComputedCharge, computeCharges, describeCharge } from "../app/domain/late-charges";
import { RATES as PUBLISHED } from "../app/domain/late-charges/test-rates";
import { formatMoney } from "../app/domain/money";
import type { StatementLine } from "../app/domain/statement";
import type { ChargeLine, StatementCharges } from "../app/domain/statement-charges";
import { type ReminderEmailProps, reminderContent } from "./reminder";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderReminder } from "./render-reminder";

/**
 * The reminder's statement with late-payment charges (decisions/067): each charge under its
 * invoice with its legal basis in words in the debtor's language, the charges of paid invoices
 * apart, and Invoices / Charges / Total per currency. The bases come from the rules themselves
 * (app/domain/late-charges computeCharges), as the accrual stores them.
 */

const TODAY = "2026-11-28";
/** £4,000.00 due 30 September 2026, 59 days late on TODAY, under the UK Act at 4.75% + 8%. */
const INVOICE = { currency: "GBP", amountCents: 400_000, dueOn: "2026-09-30", payments: [], pauses: [] };
/** The Bank of England's rates as published, then 4.75% from 30 June 2026 for this test's half-year. */
const RATES = [...PUBLISHED, { series: "boe_base", effectiveOn: "2026-06-30", rateBp: 475 }];

function accrued(): ComputedCharge[] {
  const out = computeCharges({ rule: "gb", compensation: true, contract: null }, INVOICE, TODAY, RATES);
  if ("error" in out) throw new Error(`no rate: ${out.series} ${out.on}`);
  return out.charges;
}

const lines: StatementLine[] = [
  { number: "INV-1", dueOn: "2026-09-30", balanceCents: 400_000, currency: "GBP" },
  { number: "INV-2", dueOn: "2026-11-20", balanceCents: 50_000, currency: "GBP" },
];

function chargeLine(c: ComputedCharge, over: Partial<ChargeLine> = {}): ChargeLine {
  return {
    line: 0,
    invoiceNumber: "INV-1",
    invoiceDueOn: "2026-09-30",
    kind: c.kind,
    currency: "GBP",
    amountCents: c.cents,
    paidCents: 0,
    owedCents: c.cents,
    basis: JSON.parse(JSON.stringify(c.basis)),
    accruedThrough: TODAY,
    ...over,
  };
}

function withCharges(language: Language, charges: StatementCharges | null): ReminderEmailProps {
  return {
    ...REMINDER_SAMPLE,
    template: "initial",
    tone: 1,
    statement: lines,
    today: TODAY,
    language,
    locale: debtorLocale(language, "en-US"),
    statementCharges: charges,
  };
}

/** The charges of INV-1, one paid in part, and a fee still owed on INV-0, paid in full. */
function statementCharges(): StatementCharges {
  const [interest, compensation] = accrued();
  if (!interest || !compensation) throw new Error("expected interest and compensation");
  const list: ChargeLine[] = [
    chargeLine(interest),
    chargeLine(compensation, { paidCents: 1_000, owedCents: compensation.cents - 1_000 }),
    chargeLine(compensation, { line: null, invoiceNumber: "INV-0", invoiceDueOn: "2026-06-30" }),
  ];
  const cents = list.reduce((sum, c) => sum + c.owedCents, 0);
  return { lines: list, totals: [{ currency: "GBP", cents, count: list.length }] };
}

const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("a reminder's statement with late-payment charges", () => {
  for (const language of LANGUAGES) {
    it(`${language}: lists each charge under its invoice with its legal basis, and totals invoices and charges apart`, async () => {
      const charges = statementCharges();
      const props = withCharges(language, charges);
      const locale = debtorLocale(language, "en-US");
      const moneyLocale = language === "en" ? "en-US" : locale;
      const money = (cents: number, currency: string) => formatMoney(cents, currency, moneyLocale);
      const [interest] = charges.lines;
      if (!interest) throw new Error("no interest");
      const sentence = describeCharge(interest.kind, interest.basis as ComputedCharge["basis"], language, {
        money,
        date: (d) => formatDate(d, locale),
      });
      // The Act is named as the law names it, whatever the language.
      expect(sentence).toContain("Late Payment of Commercial Debts (Interest) Act 1998");
      const { html, text } = await renderReminder(props);
      const t = translator(CHARGE_COPY, language, locale);
      for (const out of [html, text]) {
        const plain = nbsp(out.replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&"));
        expect(plain).toContain(nbsp(sentence));
        expect(plain).toContain(nbsp(t("charges.onPaid")));
        expect(plain).toContain(nbsp(t("charges.invoices")));
        expect(plain).toContain(nbsp(t("charges.charges")));
        // Invoices £4,500.00, the charges owed, and both together.
        const chargesCents = charges.totals[0]?.cents ?? 0;
        expect(plain).toContain(nbsp(money(450_000, "GBP")));
        expect(plain).toContain(nbsp(money(chargesCents, "GBP")));
        expect(plain).toContain(nbsp(money(450_000 + chargesCents, "GBP")));
        // The compensation paid in part says so.
        const compensation = charges.lines[1]?.amountCents ?? 0;
        expect(compensation).toBe(7_000); // £70: the Act's sum for a debt of £1,000 to £9,999.99
        expect(plain).toContain(
          nbsp(t("charges.partlyPaid", { paid: money(1_000, "GBP"), amount: money(compensation, "GBP") })),
        );
      }
      // Each charge sits under its invoice: INV-1's two, INV-2 none; the paid invoice's apart.
      const c = reminderContent(props);
      expect(c.charges?.byRow.map((r) => r.length)).toEqual([2, 0]);
      expect(c.charges?.onPaid).toHaveLength(1);
      expect(c.charges?.onPaid[0]?.label).toContain("INV-0");
      expect(c.charges?.summary.map((s) => s.strong)).toEqual([false, false, true]);
    });
  }

  it("a statement without charges renders exactly as one that never had the field", async () => {
    const none = await renderReminder(withCharges("en", null));
    const { statementCharges: _drop, ...before } = withCharges("en", null);
    const old = await renderReminder(before);
    expect(none).toEqual(old);
    expect(reminderContent(before).charges).toBeNull();
    expect(old.html).not.toContain("data-charge");
  });

  it("names each currency's invoices, charges and total when the statement has several", () => {
    const charges = statementCharges();
    const props = withCharges("en", {
      lines: charges.lines,
      totals: [...charges.totals, { currency: "EUR", cents: 4_000, count: 1 }],
    });
    const labels = reminderContent(props).charges?.summary.map((s) => s.label);
    expect(labels).toEqual([
      "Invoices in GBP",
      "Charges in GBP",
      "Total in GBP",
      "Invoices in EUR",
      "Charges in EUR",
      "Total in EUR",
    ]);
  });

  it("says how many owed charges it does not list, in the total all the same", () => {
    const charges = statementCharges();
    const more = { ...charges, totals: [{ currency: "GBP", cents: charges.totals[0]?.cents ?? 0, count: 6 }] };
    const c = reminderContent(withCharges("en", more));
    expect(c.charges?.moreCount).toBe(3);
    expect(c.charges?.moreLine).toBe("and 3 more charges, included in the total");
    expect(reminderContent(withCharges("en", charges)).charges?.moreLine).toBeNull();
  });

  it("a basis the rules cannot read still shows the charge's label, without invented words", () => {
    const charges = statementCharges();
    const damaged = { ...charges, lines: charges.lines.map((l) => ({ ...l, basis: null })) };
    const c = reminderContent(withCharges("de", damaged));
    expect(c.charges?.byRow[0]?.every((r) => r.label.length > 0 && r.basis === null)).toBe(true);
  });

  it("keeps {amount} in the copy the invoices' total: the charges are named apart", () => {
    const c = reminderContent(withCharges("en", statementCharges()));
    expect(nbsp(c.amount)).toBe("£4,500.00");
  });
});
