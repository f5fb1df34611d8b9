import { describe, expect, it } from "vitest";
import { type Catalogues, catalogueProblems, translator } from "../i18n";
import { LANGUAGES } from "../languages";
import { CHARGE_COPY } from "./charges";
import { DEBTOR_LINK_COPY } from "./debtor-link";
import { OPT_OUT_COPY } from "./opt-out";
import { PAID_CLAIM_COPY } from "./paid-claim";
import { PLAN_COPY } from "./payment-plan";
import { PORTAL_COPY } from "./portal";

const CATALOGUES: Record<string, Catalogues<string>> = {
  "debtor-link": DEBTOR_LINK_COPY,
  portal: PORTAL_COPY,
  "paid-claim": PAID_CLAIM_COPY,
  charges: CHARGE_COPY,
  "opt-out": OPT_OUT_COPY,
  "payment-plan": PLAN_COPY,
};

describe("the debtor pages' catalogues", () => {
  for (const [name, catalogues] of Object.entries(CATALOGUES)) {
    it(`${name}: every language has English's keys with the same arguments`, () => {
      expect(catalogueProblems(catalogues)).toEqual([]);
    });
  }

  it("keep their areas apart: no key is in two of them (a page merges several)", () => {
    const keys = Object.values(CATALOGUES).flatMap((c) => Object.keys(c.en));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("every message formats in every language, plurals by the language's rules", () => {
    for (const catalogues of Object.values(CATALOGUES)) {
      for (const language of LANGUAGES) {
        const t = translator(catalogues, language, language);
        for (const key of Object.keys(catalogues.en)) {
          const values = Object.fromEntries(
            ["sender", "amount", "currency", "date", "restart", "number", "label", "total", "what", "invoices"]
              .concat(["reference", "min", "max", "days", "count", "balance", "typed", "first", "second"])
              .concat(["example", "value", "owed", "address", "copy", "paid", "note", "last"])
              .map((n) => [n, ["max", "days", "count"].includes(n) ? 2 : `«${n}»`]),
          );
          expect(t(key, values), `${language} ${key}`).not.toBe("");
        }
      }
    }
    expect(translator(PORTAL_COPY, "de", "de-DE")("portal.checkout.lines", { count: 1, amount: "5 €" })).toBe(
      "1 Rechnung, 5 €",
    );
    expect(translator(PORTAL_COPY, "fr", "fr-FR")("portal.promise.intro", { days: 60 })).toContain("60 jours");
  });
});
