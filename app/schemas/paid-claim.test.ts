import { describe, expect, it } from "vitest";
import { translator } from "~/domain/i18n";
import { PAID_CLAIM_COPY } from "~/domain/i18n/paid-claim";
import { type ClaimMessage, readPaidClaim } from "./paid-claim";

/** A refusal as the English page writes it. */
const english = (message: ClaimMessage | undefined | null) =>
  message ? translator(PAID_CLAIM_COPY, "en", "en-US")(message.key, message.values) : null;

const open = [
  { ref: "a", id: 1, currency: "EUR", balanceCents: 120000 },
  { ref: "b", id: 2, currency: "EUR", balanceCents: 80000 },
  { ref: "c", id: 3, currency: "USD", balanceCents: 5000 },
];
const form = (fields: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of fields) f.append(k, v);
  return f;
};
const today = "2026-11-29";

describe("readPaidClaim", () => {
  it("reads the amount in the debtor's number format, never rescaled", () => {
    const de = readPaidClaim(
      form([
        ["amount", "1.234,56"],
        ["currency", "EUR"],
        ["paid_on", today],
      ]),
      { open, locale: "de-DE", today },
    );
    expect(de).toMatchObject({ ok: true, claim: { amountCents: 123456, currency: "EUR", invoiceIds: [] } });
    const us = readPaidClaim(
      form([
        ["amount", "1,234.56"],
        ["currency", "EUR"],
        ["paid_on", today],
      ]),
      { open, locale: "en-US", today },
    );
    expect(us).toMatchObject({ ok: true, claim: { amountCents: 123456 } });
    // "99,90" in a dot-decimal format could be read two ways: refused with both readings.
    const ambiguous = readPaidClaim(
      form([
        ["amount", "99,90"],
        ["currency", "EUR"],
        ["paid_on", today],
      ]),
      { open, locale: "en-US", today },
    );
    expect(ambiguous.ok).toBe(false);
    if (!ambiguous.ok) expect(english(ambiguous.errors.amount)).toMatch(/99\.90|9,990/);
    // The German page writes the same refusal in German, with the readings as typed.
    const german = ambiguous.ok
      ? ""
      : translator(PAID_CLAIM_COPY, "de", "de-DE")("claim.error.ambiguous", ambiguous.errors.amount?.values);
    expect(german).toContain("„99,90“ kann als 99.90 oder als 9,990.00 gelesen werden");
  });

  it("takes the ticked invoices' currency, refuses mixed ones with an amount, and a currency not owed", () => {
    expect(
      readPaidClaim(
        form([
          ["invoices", "a"],
          ["invoices", "b"],
          ["paid_on", today],
        ]),
        { open, locale: "en-US", today },
      ),
    ).toMatchObject({
      ok: true,
      claim: { invoiceIds: [1, 2], amountCents: null, currency: "EUR", reference: null },
    });
    const mixed = readPaidClaim(
      form([
        ["invoices", "a"],
        ["invoices", "c"],
        ["amount", "10"],
        ["paid_on", today],
      ]),
      { open, locale: "en-US", today },
    );
    expect(english(mixed.ok ? null : mixed.errors.amount)).toContain("different currencies");
    const gbp = readPaidClaim(
      form([
        ["amount", "10"],
        ["currency", "GBP"],
        ["paid_on", today],
      ]),
      { open, locale: "en-US", today },
    );
    expect(english(gbp.ok ? null : gbp.errors.currency)).toBe("Please choose the currency you paid in.");
  });

  it("refuses a repeated or foreign invoice, a date in the future or over a year back, a long reference; keeps what was typed", () => {
    const bad = readPaidClaim(
      form([
        ["invoices", "a"],
        ["invoices", "a"],
        ["paid_on", "2026-11-30"],
        ["reference", "x".repeat(141)],
      ]),
      { open, locale: "en-US", today },
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.errors).sort()).toEqual(["invoices", "paid_on", "reference"]);
    expect(bad.values).toMatchObject({ invoices: ["a", "a"], paid_on: "2026-11-30" });
    const old = readPaidClaim(
      form([
        ["invoices", "a"],
        ["paid_on", "2025-11-28"],
      ]),
      { open, locale: "en-US", today },
    );
    expect(english(old.ok ? null : old.errors.paid_on)).toMatch(/within the last 365 days/);
    const spaced = readPaidClaim(
      form([
        ["invoices", "b"],
        ["paid_on", today],
        ["reference", "  RF18   0077 "],
      ]),
      { open, locale: "en-US", today },
    );
    expect(spaced).toMatchObject({ ok: true, claim: { reference: "RF18 0077" } });
  });
});
