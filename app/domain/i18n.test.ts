import { describe, expect, it } from "vitest";
import { type Catalogues, catalogueProblems, messageArguments, translator } from "./i18n";

const good = {
  en: { invoices: "{count, plural, one {# invoice} other {# invoices}} for {name}" },
  de: { invoices: "{count, plural, one {# Rechnung} other {# Rechnungen}} für {name}" },
  fr: { invoices: "{count, plural, one {# facture} other {# factures}} pour {name}" },
  es: { invoices: "{count, plural, one {# factura} other {# facturas}} para {name}" },
  nl: { invoices: "{count, plural, one {# factuur} other {# facturen}} voor {name}" },
} satisfies Catalogues<"invoices">;

describe("message catalogues", () => {
  it("formats plurals and numbers in the locale (the e-mails' counts without grouping), and leaves markup as text", () => {
    const t = translator(good, "de", "de-DE");
    expect(t("invoices", { count: 1234, name: "<b>Acme</b>" })).toBe("1.234 Rechnungen für <b>Acme</b>");
    // The e-mails' counts without grouping, as Dunly always wrote them ("1557 days").
    const ungrouped = translator(good, "de", "de-DE", { grouping: false });
    expect(ungrouped("invoices", { count: 1234, name: "X" })).toBe("1234 Rechnungen für X");
    expect(translator(good, "fr", "fr-FR")("invoices", { count: 1, name: "X" })).toBe("1 facture pour X");
  });
  it("lists a message's arguments, inside plural branches too", () => {
    expect(messageArguments("{a} {n, plural, one {{b}} other {#}}")).toEqual(["a", "b", "n"]);
  });
  it("finds missing keys, extra keys and different arguments", () => {
    expect(catalogueProblems(good)).toEqual([]);
    const bad = { ...good, de: { invoices: "{count} Rechnungen" }, nl: { invoices: "", extra: "x" } } as never;
    expect(catalogueProblems(bad)).toEqual([
      "de: invoices uses {count}, English uses {count,name}",
      "nl: invoices is missing",
      "nl: extra is not in English",
    ]);
  });
});
