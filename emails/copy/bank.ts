import type { Language } from "../../app/domain/languages";

/**
 * The labels of bank-transfer details (app/domain/bank-transfer.ts bankLines writes them in
 * English) in each language of a reminder. IBAN and BIC read the same everywhere.
 */
const BANK_LABELS: Readonly<Record<string, Readonly<Record<Exclude<Language, "en">, string>>>> = {
  "Account holder": { de: "Kontoinhaber", fr: "Titulaire du compte", es: "Titular de la cuenta", nl: "Rekeninghouder" },
  "Account number": { de: "Kontonummer", fr: "Numéro de compte", es: "Número de cuenta", nl: "Rekeningnummer" },
  "Sort code": {
    de: "Bankleitzahl (Sort Code)",
    fr: "Code guichet (Sort Code)",
    es: "Código de sucursal (Sort Code)",
    nl: "Sort code",
  },
  "Routing number": {
    de: "Routing-Nummer",
    fr: "Numéro de routage (Routing number)",
    es: "Número de ruta (Routing number)",
    nl: "Routingnummer",
  },
};

/** A bank line's label in `language`; one it does not know (IBAN, BIC) as it is. */
export function bankLabel(label: string, language: Language): string {
  if (language === "en") return label;
  return BANK_LABELS[label]?.[language] ?? label;
}

/** The English labels translated here: a test checks bankLines writes no other. */
export const TRANSLATED_BANK_LABELS = Object.keys(BANK_LABELS);
