import type { Catalogue } from "../../app/domain/i18n";
import type { TemplateId } from "../../app/domain/presets";
import type { Tone } from "../../app/domain/strategies";
import type { LabelKey } from "./en";
import type { FirstContactRule, Line, ReminderCopySet, TemplateCopy, ToneFrame } from "./types";

/**
 * German (Sie): emails/copy/en.ts line for line, the same alternatives with the same placeholders.
 * {daysOverdue} reads "12 Tage", {invoiceCount} "3 Rechnungen", {amount} "1.234,56 €".
 */

const TONE_FRAME: Record<Tone, ToneFrame> = {
  1: {
    greeting: ["Guten Tag {contactName},", "Guten Tag {receiverName},", "Guten Tag,"],
    signOff: "Vielen Dank und freundliche Grüße",
  },
  2: {
    greeting: ["Guten Tag {contactName},", "Guten Tag {receiverName},", "Sehr geehrte Damen und Herren,"],
    signOff: "Mit freundlichen Grüßen",
  },
  3: {
    greeting: ["Guten Tag {contactName},", "Guten Tag {receiverName},", "Sehr geehrte Damen und Herren,"],
    signOff: "Mit freundlichen Grüßen",
  },
};

const REMINDER_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: {
    1: {
      subject: [
        "Freundliche Erinnerung: Rechnung {invoiceNumber} über {amount}",
        "Freundliche Erinnerung: {invoiceCount}, {amount}",
        "Freundliche Erinnerung: Zahlung von {amount}",
      ],
      heading: "Eine freundliche Erinnerung",
      paragraphs: [
        [
          "Dies ist eine freundliche Erinnerung an die Zahlung von {amount}, fällig am {dueDate}, die inzwischen {daysOverdue} überfällig ist.",
          "Dies ist eine freundliche Erinnerung an die Zahlung von {amount} für die unten aufgeführten {invoiceCount}; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Dies ist eine freundliche Erinnerung an die Zahlung von {amount}, fällig am {dueDate}.",
          "Dies ist eine freundliche Erinnerung an die Zahlung von {amount} für die unten aufgeführten {invoiceCount}.",
          "Dies ist eine freundliche Erinnerung an eine offene Zahlung von {amount}.",
        ],
        "Falls Sie die Zahlung bereits veranlasst haben, vielen Dank – betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Bei Fragen antworten Sie einfach auf diese E-Mail.",
      ],
    },
    2: {
      subject: [
        "Zahlungserinnerung: Rechnung {invoiceNumber} über {amount}",
        "Zahlungserinnerung: {invoiceCount}, {amount}",
        "Zahlungserinnerung: {amount}",
      ],
      heading: "Zahlungserinnerung",
      paragraphs: [
        [
          "Wir möchten Sie daran erinnern, dass die Zahlung von {amount}, fällig am {dueDate}, {daysOverdue} überfällig und noch nicht eingegangen ist.",
          "Wir möchten Sie daran erinnern, dass die Zahlung von {amount} für die unten aufgeführten {invoiceCount} noch nicht eingegangen ist; die älteste ist {daysOverdue} überfällig.",
          "Wir möchten Sie daran erinnern, dass die Zahlung von {amount}, fällig am {dueDate}, noch nicht eingegangen ist.",
          "Wir möchten Sie daran erinnern, dass die Zahlung von {amount} für die unten aufgeführten {invoiceCount} noch nicht eingegangen ist.",
          "Wir möchten Sie daran erinnern, dass eine Zahlung von {amount} noch nicht eingegangen ist.",
        ],
        "Bitte veranlassen Sie die Zahlung baldmöglichst. Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Bei Fragen antworten Sie bitte auf diese E-Mail.",
      ],
    },
    3: {
      subject: [
        "Zahlung fällig: Rechnung {invoiceNumber} über {amount}",
        "Zahlung fällig: {invoiceCount}, {amount}",
        "Zahlung fällig: {amount}",
      ],
      heading: "Zahlung fällig",
      paragraphs: [
        [
          "Die Zahlung von {amount}, fällig am {dueDate}, ist {daysOverdue} überfällig und nicht eingegangen.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist nicht eingegangen; die älteste ist {daysOverdue} überfällig.",
          "Die Zahlung von {amount}, fällig am {dueDate}, ist nicht eingegangen.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist nicht eingegangen.",
          "Eine Zahlung von {amount} ist offen und nicht eingegangen.",
        ],
        "Bitte zahlen Sie den vollen Betrag unverzüglich.",
        "Weitere Erinnerungen folgen, bis die Zahlung eingegangen ist.",
      ],
    },
  },

  "follow-up": {
    1: {
      subject: [
        "Nachfrage: Rechnung {invoiceNumber} über {amount}",
        "Nachfrage: {invoiceCount}, {amount}",
        "Nachfrage zu einer Zahlung von {amount}",
      ],
      heading: "Eine kurze Nachfrage",
      paragraphs: [
        [
          "Wir möchten kurz nachfragen: Die Zahlung von {amount}, fällig am {dueDate}, ist noch offen und inzwischen {daysOverdue} überfällig.",
          "Wir möchten kurz nachfragen: Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist noch offen; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Wir möchten kurz nachfragen: Die Zahlung von {amount}, fällig am {dueDate}, ist noch offen.",
          "Wir möchten kurz nachfragen: Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist noch offen.",
          "Wir möchten kurz nachfragen: Die Zahlung von {amount} ist noch offen.",
        ],
        "Vielleicht ist sie einfach untergegangen. Könnten Sie sich darum kümmern, wenn Sie einen Moment Zeit haben? Falls die Zahlung bereits unterwegs ist, vielen Dank – betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Falls etwas unklar ist, antworten Sie einfach auf diese E-Mail.",
      ],
    },
    2: {
      subject: [
        "Erneute Zahlungserinnerung: Rechnung {invoiceNumber} ({amount}) ist weiterhin offen",
        "Erneute Zahlungserinnerung: {invoiceCount} ({amount}) sind weiterhin offen",
        "Erneute Zahlungserinnerung: {amount} ist weiterhin offen",
      ],
      heading: "Zahlung weiterhin offen",
      paragraphs: [
        [
          "Dies ist eine erneute Erinnerung: Die Zahlung von {amount}, fällig am {dueDate}, ist weiterhin offen und inzwischen {daysOverdue} überfällig.",
          "Dies ist eine erneute Erinnerung: Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist weiterhin offen; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Dies ist eine erneute Erinnerung: Die Zahlung von {amount}, fällig am {dueDate}, ist weiterhin offen.",
          "Dies ist eine erneute Erinnerung: Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist weiterhin offen.",
          "Dies ist eine erneute Erinnerung: Die Zahlung von {amount} ist weiterhin offen.",
        ],
        "Bitte zahlen Sie den vollen Betrag so bald wie möglich. Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Falls Sie etwas an der Zahlung hindert, antworten Sie bitte auf diese E-Mail, damit sich eine Lösung finden lässt.",
      ],
    },
    3: {
      subject: [
        "Offen: Rechnung {invoiceNumber} über {amount}, bitte jetzt zahlen",
        "Offen: {invoiceCount}, {amount}, bitte jetzt zahlen",
        "Offen: {amount}, bitte jetzt zahlen",
      ],
      heading: "Zahlung weiterhin offen",
      paragraphs: [
        [
          "Die Zahlung von {amount}, fällig am {dueDate}, ist trotz einer früheren Erinnerung {daysOverdue} überfällig und weiterhin offen.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist trotz einer früheren Erinnerung weiterhin offen; die älteste ist {daysOverdue} überfällig.",
          "Die Zahlung von {amount}, fällig am {dueDate}, ist trotz einer früheren Erinnerung weiterhin offen.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist trotz einer früheren Erinnerung weiterhin offen.",
          "Die Zahlung von {amount} ist trotz einer früheren Erinnerung weiterhin offen.",
        ],
        "Bitte zahlen Sie den vollen Betrag jetzt.",
        "Weitere Erinnerungen folgen, bis die Zahlung eingegangen ist.",
      ],
    },
  },

  "second-follow-up": {
    1: {
      subject: [
        "Weitere Erinnerung: Rechnung {invoiceNumber} über {amount}",
        "Weitere Erinnerung: {invoiceCount}, {amount}",
        "Weitere Erinnerung: {amount} ist noch offen",
      ],
      heading: "Eine weitere Erinnerung",
      paragraphs: [
        [
          "Dies ist eine weitere Erinnerung an die Zahlung von {amount}, fällig am {dueDate}, die noch offen und inzwischen {daysOverdue} überfällig ist.",
          "Dies ist eine weitere Erinnerung an die Zahlung von {amount} für die unten aufgeführten {invoiceCount}, die noch offen ist; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Dies ist eine weitere Erinnerung an die Zahlung von {amount}, fällig am {dueDate}, die noch offen ist.",
          "Dies ist eine weitere Erinnerung an die Zahlung von {amount} für die unten aufgeführten {invoiceCount}, die noch offen ist.",
          "Dies ist eine weitere Erinnerung an die Zahlung von {amount}, die noch offen ist.",
        ],
        "Bitte veranlassen Sie die Zahlung bald. Falls es dabei ein Problem gibt, antworten Sie einfach auf diese E-Mail, damit wir es gemeinsam klären können.",
        "Falls Sie bereits gezahlt haben, vielen Dank – betrachten Sie diese Nachricht bitte als gegenstandslos.",
      ],
    },
    2: {
      subject: [
        "Handlungsbedarf: Rechnung {invoiceNumber} ({amount}) ist noch unbezahlt",
        "Handlungsbedarf: {invoiceCount} ({amount}) sind noch unbezahlt",
        "Handlungsbedarf: {amount} ist noch unbezahlt",
      ],
      heading: "Handlungsbedarf",
      paragraphs: [
        [
          "Die Zahlung von {amount}, fällig am {dueDate}, ist trotz vorheriger Erinnerungen weiterhin offen und inzwischen {daysOverdue} überfällig.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist trotz vorheriger Erinnerungen weiterhin offen; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Die Zahlung von {amount}, fällig am {dueDate}, ist trotz vorheriger Erinnerungen weiterhin offen.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist trotz vorheriger Erinnerungen weiterhin offen.",
          "Die Zahlung von {amount} ist trotz vorheriger Erinnerungen weiterhin offen.",
        ],
        "Bitte zahlen Sie den vollen Betrag jetzt, oder antworten Sie auf diese E-Mail, falls es ein Problem mit der Zahlung gibt.",
        "Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
      ],
    },
    3: {
      subject: [
        "Zahlung erforderlich: Rechnung {invoiceNumber} über {amount} ist unbezahlt",
        "Zahlung erforderlich: {invoiceCount}, {amount} unbezahlt",
        "Zahlung erforderlich: {amount} ist unbezahlt",
      ],
      heading: "Zahlung erforderlich",
      paragraphs: [
        [
          "Der Betrag von {amount}, fällig am {dueDate}, ist trotz vorheriger Erinnerungen weiterhin unbezahlt und {daysOverdue} überfällig.",
          "Der Betrag von {amount} für die unten aufgeführten {invoiceCount} ist trotz vorheriger Erinnerungen weiterhin unbezahlt; die älteste ist {daysOverdue} überfällig.",
          "Der Betrag von {amount}, fällig am {dueDate}, ist trotz vorheriger Erinnerungen weiterhin unbezahlt.",
          "Der Betrag von {amount} für die unten aufgeführten {invoiceCount} ist trotz vorheriger Erinnerungen weiterhin unbezahlt.",
          "Der Betrag von {amount} ist trotz vorheriger Erinnerungen weiterhin unbezahlt.",
        ],
        "Bitte zahlen Sie den vollen Betrag noch heute.",
        "Die Erinnerungen werden fortgesetzt, bis die Zahlung eingegangen ist.",
      ],
    },
  },

  // The final notice repeats until the schedule is cancelled, so it never says "letzte E-Mail".
  "final-notice": {
    1: {
      subject: [
        "Letzte Zahlungserinnerung: Rechnung {invoiceNumber} über {amount}",
        "Letzte Zahlungserinnerung: {invoiceCount}, {amount}",
        "Letzte Zahlungserinnerung: Zahlung von {amount}",
      ],
      heading: "Letzte Zahlungserinnerung",
      paragraphs: [
        [
          "Dies ist eine letzte Erinnerung an die Zahlung von {amount}, fällig am {dueDate}, die noch offen und inzwischen {daysOverdue} überfällig ist.",
          "Dies ist eine letzte Erinnerung an die Zahlung von {amount} für die unten aufgeführten {invoiceCount}, die noch offen ist; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Dies ist eine letzte Erinnerung an die Zahlung von {amount}, fällig am {dueDate}, die noch offen ist.",
          "Dies ist eine letzte Erinnerung an die Zahlung von {amount} für die unten aufgeführten {invoiceCount}, die noch offen ist.",
          "Dies ist eine letzte Erinnerung an die Zahlung von {amount}, die noch offen ist.",
        ],
        "Bitte begleichen Sie den vollen Betrag so bald wie möglich. Falls Sie etwas an der Zahlung hindert, antworten Sie auf diese E-Mail, damit wir darüber sprechen können.",
        "Falls Sie bereits gezahlt haben, vielen Dank – betrachten Sie dieses Schreiben bitte als gegenstandslos.",
      ],
    },
    2: {
      subject: [
        "Letzte Zahlungserinnerung: Rechnung {invoiceNumber} ({amount}) ist noch unbezahlt",
        "Letzte Zahlungserinnerung: {invoiceCount} ({amount}) sind noch unbezahlt",
        "Letzte Zahlungserinnerung: {amount} ist noch unbezahlt",
      ],
      heading: "Letzte Zahlungserinnerung",
      paragraphs: [
        [
          "Dies ist eine letzte Erinnerung: Die Zahlung von {amount}, fällig am {dueDate}, ist {daysOverdue} überfällig und nach mehreren Erinnerungen weiterhin offen.",
          "Dies ist eine letzte Erinnerung: Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist nach mehreren Erinnerungen weiterhin offen; die älteste ist {daysOverdue} überfällig.",
          "Dies ist eine letzte Erinnerung: Die Zahlung von {amount}, fällig am {dueDate}, ist nach mehreren Erinnerungen weiterhin offen.",
          "Dies ist eine letzte Erinnerung: Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist nach mehreren Erinnerungen weiterhin offen.",
          "Dies ist eine letzte Erinnerung: Die Zahlung von {amount} ist nach mehreren Erinnerungen weiterhin offen.",
        ],
        "Bitte zahlen Sie den vollen Betrag jetzt. Falls Sie nicht den vollen Betrag zahlen können, antworten Sie noch heute auf diese E-Mail, um darüber zu sprechen.",
        "Falls Sie bereits gezahlt haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.",
      ],
    },
    3: {
      subject: [
        "Letzte Zahlungserinnerung: Rechnung {invoiceNumber} ({amount}) heute zahlen",
        "Letzte Zahlungserinnerung: {invoiceCount} ({amount}) heute zahlen",
        "Letzte Zahlungserinnerung: {amount} heute zahlen",
      ],
      heading: "Letzte Zahlungserinnerung: Zahlung heute erforderlich",
      paragraphs: [
        [
          "Die Zahlung von {amount}, fällig am {dueDate}, ist {daysOverdue} überfällig und nach mehreren Erinnerungen weiterhin unbezahlt.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist nach mehreren Erinnerungen weiterhin unbezahlt; die älteste ist {daysOverdue} überfällig.",
          "Die Zahlung von {amount}, fällig am {dueDate}, ist nach mehreren Erinnerungen weiterhin unbezahlt.",
          "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist nach mehreren Erinnerungen weiterhin unbezahlt.",
          "Die Zahlung von {amount} ist nach mehreren Erinnerungen weiterhin unbezahlt.",
        ],
        "Dies ist eine letzte Aufforderung. Bitte zahlen Sie den vollen Betrag noch heute.",
        "Die Erinnerungen werden fortgesetzt, bis die Zahlung eingegangen ist. Falls Sie bereits gezahlt haben, betrachten Sie dieses Schreiben als gegenstandslos.",
      ],
    },
  },

  // Sent again and again at a daily or weekly frequency, so it says reminders will repeat; sent once
  // ('now'), resolveCopy leaves those sentences out.
  single: {
    1: {
      subject: [
        "Erinnerung: Rechnung {invoiceNumber} über {amount}",
        "Erinnerung: {invoiceCount}, offener Betrag von {amount}",
        "Erinnerung: offener Betrag von {amount}",
      ],
      heading: "Eine freundliche Erinnerung",
      paragraphs: [
        [
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount}, fällig am {dueDate}, noch offen und inzwischen {daysOverdue} überfällig ist.",
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount} für die unten aufgeführten {invoiceCount} noch offen ist; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount}, fällig am {dueDate}, noch offen ist.",
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount} für die unten aufgeführten {invoiceCount} noch offen ist.",
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount} noch offen ist.",
        ],
        "Wenn Sie einen Moment Zeit haben, veranlassen Sie bitte die Zahlung. Falls Sie bereits gezahlt haben, vielen Dank – betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Bei Fragen antworten Sie einfach auf diese E-Mail.",
      ],
    },
    2: {
      subject: [
        "Erinnerung: Rechnung {invoiceNumber} ({amount}) ist offen",
        "Erinnerung: {invoiceCount} ({amount}) sind offen",
        "Erinnerung: ausstehender Betrag von {amount}",
      ],
      heading: "Ausstehender Betrag",
      paragraphs: [
        [
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount}, fällig am {dueDate}, weiterhin aussteht und inzwischen {daysOverdue} überfällig ist.",
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount} für die unten aufgeführten {invoiceCount} weiterhin aussteht; die älteste ist inzwischen {daysOverdue} überfällig.",
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount}, fällig am {dueDate}, weiterhin aussteht.",
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount} für die unten aufgeführten {invoiceCount} weiterhin aussteht.",
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount} weiterhin aussteht.",
        ],
        "Bitte zahlen Sie den vollen Betrag so bald wie möglich. Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Erinnerungen werden regelmäßig versandt, bis der Betrag bezahlt ist.",
      ],
    },
    3: {
      subject: [
        "Zahlung erforderlich: Rechnung {invoiceNumber} über {amount}",
        "Zahlung erforderlich: {invoiceCount}, offener Betrag von {amount}",
        "Zahlung erforderlich: offener Betrag von {amount}",
      ],
      heading: "Offener Betrag: Zahlung erforderlich",
      paragraphs: [
        [
          "Ein Betrag von {amount}, fällig am {dueDate}, ist {daysOverdue} überfällig und weiterhin unbezahlt.",
          "Ein Betrag von {amount} für die unten aufgeführten {invoiceCount} ist weiterhin unbezahlt; die älteste ist {daysOverdue} überfällig.",
          "Ein Betrag von {amount}, fällig am {dueDate}, ist weiterhin unbezahlt.",
          "Ein Betrag von {amount} für die unten aufgeführten {invoiceCount} ist weiterhin unbezahlt.",
          "Ein Betrag von {amount} ist weiterhin unbezahlt.",
        ],
        "Bitte zahlen Sie den vollen Betrag jetzt.",
        "Weitere Erinnerungen folgen, bis der Betrag bezahlt ist.",
      ],
    },
  },
};

/**
 * The wording before the due date (and on it) of the initial reminder and the escalating ones,
 * per tone: a note that a payment is due, nothing late about it, so no escalation either.
 */
const DUE_SOON_COPY: Record<Tone, TemplateCopy> = {
  1: {
    subject: [
      "Anstehende Zahlung: Rechnung {invoiceNumber} über {amount}",
      "Anstehende Zahlung: {amount}, fällig am {dueDate}",
      "Anstehende Zahlung: {invoiceCount}, {amount}",
      "Anstehende Zahlung von {amount}",
    ],
    heading: "Ein freundlicher Hinweis",
    paragraphs: [
      [
        "Ein freundlicher Hinweis: {amount} ist am {dueDate} fällig.",
        "Ein freundlicher Hinweis: {amount} für die unten aufgeführten {invoiceCount} ist zu den angegebenen Terminen fällig.",
        "Ein freundlicher Hinweis: Eine Zahlung von {amount} wird bald fällig.",
      ],
      "Falls Sie die Zahlung bereits veranlasst haben, vielen Dank – betrachten Sie diese Nachricht bitte als gegenstandslos.",
      "Bei Fragen antworten Sie einfach auf diese E-Mail.",
    ],
  },
  2: {
    subject: [
      "Anstehender Fälligkeitstermin: Rechnung {invoiceNumber} über {amount}",
      "Anstehender Fälligkeitstermin: {amount} am {dueDate}",
      "Anstehende Fälligkeitstermine: {invoiceCount}, {amount}",
      "Anstehender Fälligkeitstermin: {amount}",
    ],
    heading: "Anstehender Fälligkeitstermin",
    paragraphs: [
      [
        "Wir möchten Sie daran erinnern, dass die Zahlung von {amount} am {dueDate} fällig ist.",
        "Wir möchten Sie daran erinnern, dass die Zahlung von {amount} für die unten aufgeführten {invoiceCount} zu den angegebenen Terminen fällig ist.",
        "Wir möchten Sie daran erinnern, dass eine Zahlung von {amount} bald fällig wird.",
      ],
      "Bitte veranlassen Sie die Zahlung bis zum Fälligkeitstermin. Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
      "Bei Fragen antworten Sie bitte auf diese E-Mail.",
    ],
  },
  3: {
    subject: [
      "Zahlung fällig am {dueDate}: Rechnung {invoiceNumber}, {amount}",
      "Zahlung fällig am {dueDate}: {amount}",
      "Zahlungen fällig: {invoiceCount}, {amount}",
      "Zahlung wird fällig: {amount}",
    ],
    heading: "Zahlung fällig",
    paragraphs: [
      [
        "Die Zahlung von {amount} ist am {dueDate} fällig.",
        "Die Zahlung von {amount} für die unten aufgeführten {invoiceCount} ist zu den angegebenen Terminen fällig.",
        "Eine Zahlung von {amount} wird bald fällig.",
      ],
      "Bitte zahlen Sie den vollen Betrag bis zum Fälligkeitstermin.",
      "Weitere Erinnerungen folgen, bis die Zahlung eingegangen ist.",
    ],
  },
};

/**
 * Every template's wording before its due date (and on it): the initial and escalating templates
 * their tone's DUE_SOON_COPY, the single reminder a balance note of its own (it repeats).
 */
const NOT_YET_DUE_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: DUE_SOON_COPY,
  "follow-up": DUE_SOON_COPY,
  "second-follow-up": DUE_SOON_COPY,
  "final-notice": DUE_SOON_COPY,
  single: {
    1: {
      subject: [
        "Erinnerung: Rechnung {invoiceNumber} über {amount}, fällig am {dueDate}",
        "Erinnerung: {amount}, fällig am {dueDate}",
        "Erinnerung: {invoiceCount}, Betrag von {amount} wird fällig",
        "Erinnerung: Betrag von {amount} wird fällig",
      ],
      heading: "Eine freundliche Erinnerung",
      paragraphs: [
        [
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount} am {dueDate} fällig ist.",
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount} für die unten aufgeführten {invoiceCount} zu den angegebenen Terminen fällig ist.",
          "Wir möchten Sie freundlich daran erinnern, dass ein Betrag von {amount} bald fällig wird.",
        ],
        "Wenn Sie einen Moment Zeit haben, veranlassen Sie bitte die Zahlung bis zum Fälligkeitstermin. Falls Sie bereits gezahlt haben, vielen Dank – betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Bei Fragen antworten Sie einfach auf diese E-Mail.",
      ],
    },
    2: {
      subject: [
        "Erinnerung: Rechnung {invoiceNumber} ({amount}) ist am {dueDate} fällig",
        "Erinnerung: {amount} ist am {dueDate} fällig",
        "Erinnerung: {invoiceCount} ({amount}) werden fällig",
        "Erinnerung: Betrag von {amount} wird fällig",
      ],
      heading: "Betrag wird fällig",
      paragraphs: [
        [
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount} am {dueDate} fällig ist.",
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount} für die unten aufgeführten {invoiceCount} zu den angegebenen Terminen fällig ist.",
          "Wir möchten Sie daran erinnern, dass ein Betrag von {amount} bald fällig wird.",
        ],
        "Bitte veranlassen Sie die Zahlung bis zum Fälligkeitstermin. Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
        "Erinnerungen werden regelmäßig versandt, bis der Betrag bezahlt ist.",
      ],
    },
    3: {
      subject: [
        "Zahlung erforderlich bis zum {dueDate}: Rechnung {invoiceNumber}, {amount}",
        "Zahlung erforderlich bis zum {dueDate}: {amount}",
        "Zahlung erforderlich: {invoiceCount}, Betrag von {amount} wird fällig",
        "Zahlung erforderlich: Betrag von {amount} wird fällig",
      ],
      heading: "Betrag wird fällig: Zahlung erforderlich",
      paragraphs: [
        [
          "Ein Betrag von {amount} ist am {dueDate} fällig.",
          "Ein Betrag von {amount} für die unten aufgeführten {invoiceCount} ist zu den angegebenen Terminen fällig.",
          "Ein Betrag von {amount} wird bald fällig.",
        ],
        "Bitte zahlen Sie den vollen Betrag bis zum Fälligkeitstermin.",
        "Weitere Erinnerungen folgen, bis der Betrag bezahlt ist.",
      ],
    },
  },
};

/** Footer of every reminder: who sent it and how to reach them. */
const FOOTER_COPY: Line = [
  "Versandt von {senderName}. Antworten Sie auf diese E-Mail, um den Absender zu erreichen.",
  "Antworten Sie auf diese E-Mail, um den Absender zu erreichen.",
];

/** The opt-out line under the footer of every reminder: the question, then the link's text. */
const OPT_OUT_COPY = {
  question: "Sie möchten diese Erinnerungen nicht mehr erhalten?",
  link: "Hier abbestellen",
} as const;

/** Paying from the reminder: the 'Pay now' button and the line with the "I've paid" link. */
const PAY_COPY = {
  button: "Jetzt bezahlen",
  paidQuestion: [
    "Bereits bezahlt? Teilen Sie es {senderName} mit, dann werden die Erinnerungen pausiert:",
    "Bereits bezahlt? Teilen Sie es dem Absender mit, dann werden die Erinnerungen pausiert:",
  ] as Line,
  paidQuestionOnce: [
    "Bereits bezahlt? Teilen Sie es {senderName} mit:",
    "Bereits bezahlt? Teilen Sie es dem Absender mit:",
  ] as Line,
  paidLink: "Ich habe bezahlt",
} as const;

/**
 * The sentences that announce more reminders ("Weitere Erinnerungen folgen…", "Die Erinnerungen
 * werden fortgesetzt…", "Erinnerungen werden regelmäßig versandt…"): a one-time reminder leaves
 * them out, since none follows.
 */
const REPEAT_NOTICE =
  /(?:Weitere Erinnerungen folgen|Die Erinnerungen werden fortgesetzt|Erinnerungen werden regelmäßig versandt)[^.]*\.\s*/g;

/** Rewrites of the firmer templates' mentions of earlier contact, for a debtor's first reminder. */
const FIRST_CONTACT: readonly FirstContactRule[] = [
  [/^Nachfrage: /, "Erinnerung: "],
  [/^Nachfrage zu einer Zahlung von /, "Erinnerung: Zahlung von "],
  [/^Eine kurze Nachfrage$/, "Zahlungserinnerung"],
  [/^Wir möchten kurz nachfragen: Die Zahlung/, "Dies ist eine Erinnerung: Die Zahlung"],
  [/^Erneute Zahlungserinnerung: /, "Zahlungserinnerung: "],
  [/^Dies ist eine erneute Erinnerung: Die Zahlung/, "Die Zahlung"],
  [/ trotz einer früheren Erinnerung/g, ""],
  [/^Weitere Erinnerung: /, "Erinnerung: "],
  [/^Eine weitere Erinnerung$/, "Eine Erinnerung"],
  [/^Dies ist eine weitere Erinnerung an/, "Dies ist eine Erinnerung an"],
  [/ trotz vorheriger Erinnerungen/g, ""],
  [/ nach mehreren Erinnerungen/g, ""],
];

/** The fixed texts of a reminder (emails/reminder.tsx) and its statement's labels: ICU messages. */
const LABELS = {
  invoiceHeading: "Rechnung",
  dueDateHeading: "Fällig am",
  balanceHeading: "Offen",
  statusHeading: "Status",
  totalDue: "Offener Gesamtbetrag",
  totalDueIn: "Offener Gesamtbetrag in {currency}",
  moreInvoices: "und {count, plural, one {# weitere Rechnung} other {# weitere Rechnungen}}, im Gesamtbetrag enthalten",
  invoiceDue: "Rechnung fällig am {date}",
  theInvoiceDue: "die Rechnung fällig am {date}",
  apartLine: "{invoice} ({balance}, fällig am {date})",
  notChased: "Nach Vereinbarung nicht Teil dieser Erinnerung: {invoices}. Nicht im obigen Gesamtbetrag enthalten.",
  claimedPaid:
    "Sie haben uns mitgeteilt, dass Sie {invoices} bezahlt haben. {senderName} prüft das, daher {count, plural, one {ist sie} other {sind sie}} nicht im obigen Gesamtbetrag enthalten.",
  payByBank: "Zahlung per Banküberweisung",
  payByBankIn: "Zahlung per Banküberweisung ({currency})",
  reference: "Verwendungszweck",
  viewStatement: "Ihre Aufstellung ansehen / antworten",
  contact: "Kontakt:",
  days: "{count, plural, one {# Tag} other {# Tage}}",
  invoices: "{count, plural, one {# Rechnung} other {# Rechnungen}}",
  dueToday: "heute fällig",
  daysOverdue: "{count, plural, one {# Tag} other {# Tage}} überfällig",
  dueIn: "fällig in {count, plural, one {# Tag} other {# Tagen}}",
  sentBy: "Versandt von Dunly.",
} as const;

export const DE: ReminderCopySet = {
  frame: TONE_FRAME,
  overdue: REMINDER_COPY,
  notYetDue: NOT_YET_DUE_COPY,
  footer: FOOTER_COPY,
  optOut: OPT_OUT_COPY,
  pay: PAY_COPY,
  repeatNotice: REPEAT_NOTICE,
  firstContact: FIRST_CONTACT,
  labels: LABELS satisfies Catalogue<LabelKey>,
};
