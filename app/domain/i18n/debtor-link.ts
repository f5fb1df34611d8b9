import type { Catalogues } from "../i18n";

/**
 * What every page a debtor reaches from a reminder says (/d/… their page, /p/… "I've paid", /u/…
 * opt-out): the skip link, a link that is no longer valid, what is still owed, the theme switch. English is the
 * source (app/domain/i18n.ts); the page's loader sends only the debtor's language to the browser.
 */
const en = {
  "link.skip": "Skip to content",
  "link.invalid": "This link is no longer valid.",
  "link.reopen": "Please open the link from the most recent reminder again.",
  "link.owed": "Still owed to {sender}: {total}",
  "link.lightTheme": "Light theme",
} as const;

export type DebtorLinkKey = keyof typeof en;

export const DEBTOR_LINK_COPY: Catalogues<DebtorLinkKey> = {
  en,
  de: {
    "link.skip": "Zum Inhalt springen",
    "link.invalid": "Dieser Link ist nicht mehr gültig.",
    "link.reopen": "Bitte öffnen Sie den Link aus der neuesten Zahlungserinnerung.",
    "link.owed": "Noch offen bei {sender}: {total}",
    "link.lightTheme": "Helles Design",
  },
  fr: {
    "link.skip": "Aller au contenu",
    "link.invalid": "Ce lien n’est plus valide.",
    "link.reopen": "Veuillez ouvrir le lien du rappel le plus récent.",
    "link.owed": "Reste dû à {sender} : {total}",
    "link.lightTheme": "Thème clair",
  },
  es: {
    "link.skip": "Ir al contenido",
    "link.invalid": "Este enlace ya no es válido.",
    "link.reopen": "Abra el enlace del recordatorio más reciente.",
    "link.owed": "Pendiente de pago a {sender}: {total}",
    "link.lightTheme": "Tema claro",
  },
  nl: {
    "link.skip": "Naar de inhoud",
    "link.invalid": "Deze link is niet meer geldig.",
    "link.reopen": "Open de link uit de meest recente herinnering opnieuw.",
    "link.owed": "Nog verschuldigd aan {sender}: {total}",
    "link.lightTheme": "Licht thema",
  },
};
