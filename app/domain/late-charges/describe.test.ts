import { describe, expect, it } from "vitest";
import { formatDate } from "../dates";
import { LANGUAGES, type Language } from "../languages";
import { formatMoney } from "../money";
import { type ChargeBasis, computeCharges, type InvoiceHistory } from "./compute";
import { chargeLabel, describeCharge, describeNoCharge, formatRate } from "./describe";
import { STATUTORY_RULES, type StatutoryRuleId } from "./rules";
import { RATES } from "./test-rates";

const LOCALES: Record<Language, string> = { en: "en-GB", de: "de-DE", fr: "fr-FR", es: "es-ES", nl: "nl-NL" };
/** Intl writes no-break spaces ("10.000,00 €"): compared as plain spaces. */
const plain = (text: string) => text.replace(/\s/g, " ");
const formatFor = (language: Language) => ({
  money: (cents: number, currency: string) => formatMoney(cents, currency, LOCALES[language]),
  date: (iso: string) => formatDate(iso, LOCALES[language]),
});

const ukInterest: ChargeBasis = {
  v: 1,
  type: "statutory_interest",
  rule: "gb",
  currency: "GBP",
  series: "boe_base",
  marginBp: 800,
  fixing: "fixed_at_start",
  dayCount: "actual/365",
  periods: [
    {
      from: "2026-10-01",
      to: "2026-11-28",
      days: 59,
      principalCents: 400_000,
      rateBp: 1275,
      referenceBp: 475,
      fixedOn: "2026-06-30",
    },
  ],
};

const invoice = (over: Partial<InvoiceHistory> = {}): InvoiceHistory => ({
  currency: "EUR",
  amountCents: 1_000_000,
  dueOn: "2024-06-15",
  payments: [],
  pauses: [],
  ...over,
});

function computed(rule: StatutoryRuleId, inv: InvoiceHistory, through: string) {
  const result = computeCharges({ rule, compensation: true, contract: null }, inv, through, RATES);
  if ("error" in result) throw new Error(result.error);
  return result.charges;
}

describe("charges in words", () => {
  it("says the UK statutory line as the law names it", () => {
    expect(describeCharge("interest", ukInterest, "en", formatFor("en"))).toBe(
      "Statutory interest under the Late Payment of Commercial Debts (Interest) Act 1998 at 12.75% a year on £4,000.00 from 1 Oct 2026 to 28 Nov 2026 (59 days)",
    );
  });

  it("names § 288 BGB in German, and each half-year's rate", () => {
    const [interest, compensation] = computed("de", invoice(), "2024-07-15");
    if (!interest || !compensation) throw new Error("expected two charges");
    expect(plain(describeCharge(interest.kind, interest.basis, "de", formatFor("de")))).toBe(
      "Gesetzliche Verzugszinsen (§ 288 Abs. 2 BGB): 12,62 % p. a. auf 10.000,00 € vom 16.06.2024 bis 30.06.2024 (15 Tage); danach 12,37 % p. a. auf 10.000,00 € vom 01.07.2024 bis 15.07.2024 (15 Tage)",
    );
    expect(plain(describeCharge(compensation.kind, compensation.basis, "de", formatFor("de")))).toBe(
      "Pauschale für Beitreibungskosten (§ 288 Abs. 5 BGB): pauschal 40,00 € je Rechnung",
    );
    expect(describeCharge(interest.kind, interest.basis, "en", formatFor("en"))).toContain(
      "at 12.62% a year on €10,000.00 from 16 Jun 2024 to 30 Jun 2024 (15 days); then at 12.37% a year",
    );
  });

  it("names a Belgian law in Dutch for a Dutch reader, in French otherwise", () => {
    const [interest] = computed("be", invoice({ dueOn: "2025-12-31" }), "2026-01-30");
    if (!interest) throw new Error("expected interest");
    expect(plain(describeCharge(interest.kind, interest.basis, "nl", formatFor("nl")))).toBe(
      "Wettelijke handelsrente (wet van 2 augustus 2002 betreffende de bestrijding van de betalingsachterstand bij handelstransacties, art. 5): 10,50% per jaar over € 10.000,00 van 01-01-2026 tot en met 30-01-2026 (30 dagen)",
    );
    expect(describeCharge(interest.kind, interest.basis, "fr", formatFor("fr"))).toContain("(loi du 2 août 2002");
  });

  it("says the UK compensation with the debt's size", () => {
    const charges = computed(
      "gb",
      invoice({ currency: "GBP", amountCents: 400_000, dueOn: "2025-03-30" }),
      "2025-05-28",
    );
    const compensation = charges.find((c) => c.kind === "compensation");
    if (!compensation) throw new Error("expected compensation");
    expect(describeCharge("compensation", compensation.basis, "en", formatFor("en"))).toBe(
      "Compensation for recovery costs under section 5A of the Late Payment of Commercial Debts (Interest) Act 1998: a fixed £70.00 for a debt of £4,000.00",
    );
  });

  it("writes every charge in every language, each its own", () => {
    const statutory = computed("fr", invoice({ dueOn: "2024-12-31" }), "2025-01-31");
    const contract = computeCharges(
      {
        rule: "contract",
        compensation: false,
        contract: { kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp: 150, graceDays: 5, capBp: 200 },
      },
      invoice({ currency: "USD", dueOn: "2026-01-31", amountCents: 100_000 }),
      "2026-06-30",
      RATES,
    );
    if ("error" in contract) throw new Error(contract.error);
    const all = [...statutory, ...contract.charges];
    expect(all).toHaveLength(3);
    for (const charge of all) {
      const texts = LANGUAGES.map((l) => describeCharge(charge.kind, charge.basis, l, formatFor(l)));
      expect(new Set(texts).size).toBe(LANGUAGES.length);
      const labels = LANGUAGES.map((l) => chargeLabel(charge.kind, charge.basis, l));
      expect(new Set(labels).size).toBe(LANGUAGES.length);
      for (const [i, text] of texts.entries()) expect(text.startsWith(labels[i] ?? "")).toBe(true);
    }
    const monthly = contract.charges[0];
    if (!monthly) throw new Error("expected a charge");
    expect(describeCharge(monthly.kind, monthly.basis, "en", formatFor("en"))).toBe(
      "Late-payment interest under the agreed payment terms: 1.50% a month on US$1,000.00 for 5 months from 6 Feb 2026, after 5 days of grace, capped at 2.00% of the invoice (US$20.00)",
    );
  });

  it("labels: statutory interest, compensation, late fee", () => {
    const fee: ChargeBasis = {
      v: 1,
      type: "contract",
      kind: "fixed",
      currency: "USD",
      graceDays: 0,
      fromOn: "2026-02-01",
      feeCents: 2500,
      rateBp: null,
      principalCents: null,
      months: [],
      capBp: null,
      capCents: null,
      capped: false,
      uncappedCents: 2500,
      invoiceCents: 100_000,
    };
    expect(chargeLabel("interest", ukInterest, "en")).toBe("Statutory interest");
    expect(chargeLabel("fee", fee, "en")).toBe("Late fee");
    expect(describeCharge("fee", fee, "en", formatFor("en"))).toBe(
      "Late fee under the agreed payment terms: a fixed US$25.00",
    );
    expect(plain(describeCharge("fee", fee, "nl", formatFor("nl")))).toBe(
      "Kosten wegens te late betaling volgens de overeengekomen betalingsvoorwaarden: vast bedrag van US$ 25,00",
    );
  });

  it("writes rates the language's way and says why nothing is charged", () => {
    expect(LANGUAGES.map((l) => formatRate(1275, l).replace(/\s/g, " "))).toEqual([
      "12.75%",
      "12,75 %",
      "12,75 %",
      "12,75 %",
      "12,75%",
    ]);
    expect(describeNoCharge("other-currency", "en", "GBP")).toBe(
      "No late-payment charges: the rule applies only to invoices in GBP.",
    );
    for (const l of LANGUAGES) expect(describeNoCharge("grace", l)).not.toBe("");
  });
});

describe("every rule in every language", () => {
  it("names the rule's law and the rate", () => {
    for (const rule of STATUTORY_RULES) {
      const inv = invoice({ currency: rule.currency, dueOn: "2025-07-31" });
      const [interest, compensation] = computed(rule.id, inv, "2025-08-30");
      if (!interest || !compensation) throw new Error(`${rule.id}: expected two charges`);
      for (const language of LANGUAGES) {
        const text = describeCharge(interest.kind, interest.basis, language, formatFor(language));
        const law =
          language === "en"
            ? rule.interestLaw.english
            : (rule.interestLaw.byLanguage?.[language] ?? rule.interestLaw.law);
        expect(text, `${rule.id} ${language}`).toContain(law);
        expect(plain(text)).toContain(
          plain(formatRate((interest.basis as { periods: { rateBp: number }[] }).periods[0]?.rateBp ?? 0, language)),
        );
        expect(describeCharge(compensation.kind, compensation.basis, language, formatFor(language))).not.toBe("");
      }
    }
  });
});
