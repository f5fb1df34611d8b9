import type { Catalogue } from "../../app/domain/i18n";
import type { TemplateId } from "../../app/domain/presets";
import type { Tone } from "../../app/domain/strategies";
import type { LabelKey } from "./en";
import type { FirstContactRule, Line, ReminderCopySet, TemplateCopy, ToneFrame } from "./types";

/**
 * Dutch (formal "u"): a line-for-line translation of emails/copy/en.ts, with exactly its lines,
 * alternatives and arguments (catalogueProblems, emails/copy/copy.test.ts). The values arrive
 * already written in Dutch: {daysOverdue} "12 dagen", {invoiceCount} "3 facturen", {amount}
 * "€ 1.234,56", {dueDate} "5 maart 2027". "due on {dueDate}" is "met vervaldatum {dueDate}"
 * (past or future alike), "{daysOverdue} overdue" "de betaaltermijn is met {daysOverdue} overschreden".
 */

const TONE_FRAME: Record<Tone, ToneFrame> = {
  1: {
    greeting: ["Beste {contactName},", "Beste {receiverName},", "Goedendag,"],
    signOff: "Alvast bedankt en met vriendelijke groet,",
  },
  2: { greeting: ["Beste {contactName},", "Beste {receiverName},", "Goedendag,"], signOff: "Met vriendelijke groet," },
  3: {
    greeting: ["Geachte {contactName},", "Geachte {receiverName},", "Geachte heer, mevrouw,"],
    signOff: "Met groet,",
  },
};

const REMINDER_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: {
    1: {
      subject: [
        "Vriendelijke herinnering: factuur {invoiceNumber} van {amount}",
        "Vriendelijke herinnering: {invoiceCount}, {amount}",
        "Vriendelijke herinnering: betaling van {amount}",
      ],
      heading: "Een vriendelijke herinnering",
      paragraphs: [
        [
          "Wij herinneren u graag aan de betaling van {amount}, met vervaldatum {dueDate}; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u graag aan de betaling van {amount} voor de {invoiceCount} hieronder; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u graag aan de betaling van {amount}, met vervaldatum {dueDate}.",
          "Wij herinneren u graag aan de betaling van {amount} voor de {invoiceCount} hieronder.",
          "Wij herinneren u graag aan een openstaande betaling van {amount}.",
        ],
        "Heeft u dit al geregeld? Dan danken wij u hartelijk en kunt u dit bericht als niet verzonden beschouwen.",
        "Heeft u vragen? U kunt gewoon op deze e-mail reageren.",
      ],
    },
    2: {
      subject: [
        "Betalingsherinnering: factuur {invoiceNumber} van {amount}",
        "Betalingsherinnering: {invoiceCount}, {amount}",
        "Betalingsherinnering: {amount}",
      ],
      heading: "Betalingsherinnering",
      paragraphs: [
        [
          "Volgens onze administratie is de betaling van {amount}, met vervaldatum {dueDate}, nog niet ontvangen; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Volgens onze administratie is de betaling van {amount} voor de {invoiceCount} hieronder nog niet ontvangen; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Volgens onze administratie is de betaling van {amount}, met vervaldatum {dueDate}, nog niet ontvangen.",
          "Volgens onze administratie is de betaling van {amount} voor de {invoiceCount} hieronder nog niet ontvangen.",
          "Volgens onze administratie is een betaling van {amount} nog niet ontvangen.",
        ],
        "Wij verzoeken u het bedrag op korte termijn te voldoen. Heeft u inmiddels betaald? Dan kunt u dit bericht als niet verzonden beschouwen.",
        "Heeft u vragen? Beantwoord dan deze e-mail.",
      ],
    },
    3: {
      subject: [
        "Betaling verschuldigd: factuur {invoiceNumber} van {amount}",
        "Betaling verschuldigd: {invoiceCount}, {amount}",
        "Betaling verschuldigd: {amount}",
      ],
      heading: "Betaling verschuldigd",
      paragraphs: [
        [
          "De betaling van {amount}, met vervaldatum {dueDate}, is niet ontvangen; de betaaltermijn is met {daysOverdue} overschreden.",
          "De betaling van {amount} voor de {invoiceCount} hieronder is niet ontvangen; bij de oudste is de betaaltermijn met {daysOverdue} overschreden.",
          "De betaling van {amount}, met vervaldatum {dueDate}, is niet ontvangen.",
          "De betaling van {amount} voor de {invoiceCount} hieronder is niet ontvangen.",
          "Een betaling van {amount} staat open en is niet ontvangen.",
        ],
        "Wij verzoeken u het volledige bedrag onverwijld te voldoen.",
        "Er volgen verdere herinneringen totdat de betaling is ontvangen.",
      ],
    },
  },

  "follow-up": {
    1: {
      subject: [
        "Nog even over factuur {invoiceNumber} van {amount}",
        "Nog even over {invoiceCount}, totaal {amount}",
        "Nog even over een betaling van {amount}",
      ],
      heading: "Nog even ter herinnering",
      paragraphs: [
        [
          "Wij komen even terug op de nog openstaande betaling van {amount}, met vervaldatum {dueDate}; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Wij komen even terug op de nog openstaande betaling van {amount} voor de {invoiceCount} hieronder; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Wij komen even terug op de nog openstaande betaling van {amount}, met vervaldatum {dueDate}.",
          "Wij komen even terug op de nog openstaande betaling van {amount} voor de {invoiceCount} hieronder.",
          "Wij komen even terug op de nog openstaande betaling van {amount}.",
        ],
        "Wellicht is het u ontschoten. Wilt u de betaling regelen zodra u even tijd heeft? Is de betaling al onderweg? Dan danken wij u hartelijk en kunt u dit bericht als niet verzonden beschouwen.",
        "Is er iets onduidelijk? U kunt gewoon op deze e-mail reageren.",
      ],
    },
    2: {
      subject: [
        "Vervolgherinnering: factuur {invoiceNumber} ({amount}) staat nog open",
        "Vervolgherinnering: {invoiceCount} ({amount}) staan nog open",
        "Vervolgherinnering: {amount} staat nog open",
      ],
      heading: "Betaling staat nog open",
      paragraphs: [
        [
          "Wij herinneren u er nogmaals aan dat de betaling van {amount}, met vervaldatum {dueDate}, nog openstaat; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u er nogmaals aan dat de betaling van {amount} voor de {invoiceCount} hieronder nog openstaat; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u er nogmaals aan dat de betaling van {amount}, met vervaldatum {dueDate}, nog openstaat.",
          "Wij herinneren u er nogmaals aan dat de betaling van {amount} voor de {invoiceCount} hieronder nog openstaat.",
          "Wij herinneren u er nogmaals aan dat de betaling van {amount} nog openstaat.",
        ],
        "Wij verzoeken u het volledige bedrag zo spoedig mogelijk te voldoen. Heeft u inmiddels betaald? Dan kunt u dit bericht als niet verzonden beschouwen.",
        "Is er iets dat de betaling verhindert? Beantwoord dan deze e-mail, zodat er samen een oplossing kan worden gevonden.",
      ],
    },
    3: {
      subject: [
        "Openstaand: factuur {invoiceNumber} van {amount}, direct betalen",
        "Openstaand: {invoiceCount}, {amount}, direct betalen",
        "Openstaand: {amount}, direct betalen",
      ],
      heading: "Betaling staat nog open",
      paragraphs: [
        [
          "De betaling van {amount}, met vervaldatum {dueDate}, staat ondanks een eerdere herinnering nog open; de betaaltermijn is met {daysOverdue} overschreden.",
          "De betaling van {amount} voor de {invoiceCount} hieronder staat ondanks een eerdere herinnering nog open; bij de oudste is de betaaltermijn met {daysOverdue} overschreden.",
          "De betaling van {amount}, met vervaldatum {dueDate}, staat ondanks een eerdere herinnering nog open.",
          "De betaling van {amount} voor de {invoiceCount} hieronder staat ondanks een eerdere herinnering nog open.",
          "De betaling van {amount} staat ondanks een eerdere herinnering nog open.",
        ],
        "Voldoet u het volledige bedrag per omgaande.",
        "Er volgen verdere herinneringen totdat de betaling is ontvangen.",
      ],
    },
  },

  "second-follow-up": {
    1: {
      subject: [
        "Opnieuw een herinnering: factuur {invoiceNumber} van {amount}",
        "Opnieuw een herinnering: {invoiceCount}, {amount}",
        "Opnieuw een herinnering: {amount} staat nog open",
      ],
      heading: "Opnieuw een herinnering",
      paragraphs: [
        [
          "Wij herinneren u opnieuw aan de nog openstaande betaling van {amount}, met vervaldatum {dueDate}; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u opnieuw aan de nog openstaande betaling van {amount} voor de {invoiceCount} hieronder; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u opnieuw aan de nog openstaande betaling van {amount}, met vervaldatum {dueDate}.",
          "Wij herinneren u opnieuw aan de nog openstaande betaling van {amount} voor de {invoiceCount} hieronder.",
          "Wij herinneren u opnieuw aan de nog openstaande betaling van {amount}.",
        ],
        "Wij verzoeken u de betaling binnenkort te regelen. Is er een probleem met de betaling? Beantwoord dan gewoon deze e-mail, zodat we het samen kunnen oplossen.",
        "Heeft u inmiddels betaald? Dan danken wij u hartelijk en kunt u dit bericht als niet verzonden beschouwen.",
      ],
    },
    2: {
      subject: [
        "Actie vereist: factuur {invoiceNumber} ({amount}) is nog onbetaald",
        "Actie vereist: {invoiceCount} ({amount}) zijn nog onbetaald",
        "Actie vereist: {amount} is nog onbetaald",
      ],
      heading: "Actie vereist",
      paragraphs: [
        [
          "De betaling van {amount}, met vervaldatum {dueDate}, staat ondanks eerdere herinneringen nog open; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "De betaling van {amount} voor de {invoiceCount} hieronder staat ondanks eerdere herinneringen nog open; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "De betaling van {amount}, met vervaldatum {dueDate}, staat ondanks eerdere herinneringen nog open.",
          "De betaling van {amount} voor de {invoiceCount} hieronder staat ondanks eerdere herinneringen nog open.",
          "De betaling van {amount} staat ondanks eerdere herinneringen nog open.",
        ],
        "Wij verzoeken u het volledige bedrag nu te voldoen, of deze e-mail te beantwoorden als er een probleem is met de betaling.",
        "Heeft u inmiddels betaald? Dan kunt u dit bericht als niet verzonden beschouwen.",
      ],
    },
    3: {
      subject: [
        "Betaling vereist: factuur {invoiceNumber} van {amount} is onbetaald",
        "Betaling vereist: {invoiceCount}, {amount} onbetaald",
        "Betaling vereist: {amount} is onbetaald",
      ],
      heading: "Betaling vereist",
      paragraphs: [
        [
          "Het bedrag van {amount}, met vervaldatum {dueDate}, is ondanks eerdere herinneringen nog altijd onbetaald; de betaaltermijn is met {daysOverdue} overschreden.",
          "Het bedrag van {amount} voor de {invoiceCount} hieronder is ondanks eerdere herinneringen nog altijd onbetaald; bij de oudste is de betaaltermijn met {daysOverdue} overschreden.",
          "Het bedrag van {amount}, met vervaldatum {dueDate}, is ondanks eerdere herinneringen nog altijd onbetaald.",
          "Het bedrag van {amount} voor de {invoiceCount} hieronder is ondanks eerdere herinneringen nog altijd onbetaald.",
          "Het bedrag van {amount} is ondanks eerdere herinneringen nog altijd onbetaald.",
        ],
        "Voldoet u het volledige bedrag vandaag nog.",
        "De herinneringen worden voortgezet totdat de betaling is ontvangen.",
      ],
    },
  },

  // The final notice repeats until the schedule is cancelled, so it never says "last e-mail".
  "final-notice": {
    1: {
      subject: [
        "Laatste herinnering: factuur {invoiceNumber} van {amount}",
        "Laatste herinnering: {invoiceCount}, {amount}",
        "Laatste herinnering: betaling van {amount}",
      ],
      heading: "Laatste herinnering",
      paragraphs: [
        [
          "Dit is een laatste herinnering aan de nog openstaande betaling van {amount}, met vervaldatum {dueDate}; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Dit is een laatste herinnering aan de nog openstaande betaling van {amount} voor de {invoiceCount} hieronder; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Dit is een laatste herinnering aan de nog openstaande betaling van {amount}, met vervaldatum {dueDate}.",
          "Dit is een laatste herinnering aan de nog openstaande betaling van {amount} voor de {invoiceCount} hieronder.",
          "Dit is een laatste herinnering aan de nog openstaande betaling van {amount}.",
        ],
        "Wij verzoeken u het volledige bedrag te voldoen zodra het u mogelijk is. Is er iets dat de betaling verhindert? Beantwoord dan deze e-mail, zodat we het kunnen bespreken.",
        "Heeft u inmiddels betaald? Dan danken wij u hartelijk en kunt u deze herinnering als niet verzonden beschouwen.",
      ],
    },
    2: {
      subject: [
        "Laatste herinnering: factuur {invoiceNumber} ({amount}) is nog onbetaald",
        "Laatste herinnering: {invoiceCount} ({amount}) zijn nog onbetaald",
        "Laatste herinnering: {amount} is nog onbetaald",
      ],
      heading: "Laatste herinnering",
      paragraphs: [
        [
          "Dit is een laatste herinnering: de betaling van {amount}, met vervaldatum {dueDate}, staat na meerdere herinneringen nog altijd open; de betaaltermijn is met {daysOverdue} overschreden.",
          "Dit is een laatste herinnering: de betaling van {amount} voor de {invoiceCount} hieronder staat na meerdere herinneringen nog altijd open; bij de oudste is de betaaltermijn met {daysOverdue} overschreden.",
          "Dit is een laatste herinnering: de betaling van {amount}, met vervaldatum {dueDate}, staat na meerdere herinneringen nog altijd open.",
          "Dit is een laatste herinnering: de betaling van {amount} voor de {invoiceCount} hieronder staat na meerdere herinneringen nog altijd open.",
          "Dit is een laatste herinnering: de betaling van {amount} staat na meerdere herinneringen nog altijd open.",
        ],
        "Wij verzoeken u het volledige bedrag nu te voldoen. Kunt u niet het volledige bedrag betalen? Beantwoord dan vandaag nog deze e-mail om dit te bespreken.",
        "Heeft u inmiddels betaald? Dan kunt u deze herinnering als niet verzonden beschouwen.",
      ],
    },
    3: {
      subject: [
        "Laatste herinnering: factuur {invoiceNumber} ({amount}) vandaag betalen",
        "Laatste herinnering: {invoiceCount} ({amount}) vandaag betalen",
        "Laatste herinnering: {amount} vandaag betalen",
      ],
      heading: "Laatste herinnering: betaling vandaag vereist",
      paragraphs: [
        [
          "De betaling van {amount}, met vervaldatum {dueDate}, is na meerdere herinneringen nog altijd niet voldaan; de betaaltermijn is met {daysOverdue} overschreden.",
          "De betaling van {amount} voor de {invoiceCount} hieronder is na meerdere herinneringen nog altijd niet voldaan; bij de oudste is de betaaltermijn met {daysOverdue} overschreden.",
          "De betaling van {amount}, met vervaldatum {dueDate}, is na meerdere herinneringen nog altijd niet voldaan.",
          "De betaling van {amount} voor de {invoiceCount} hieronder is na meerdere herinneringen nog altijd niet voldaan.",
          "De betaling van {amount} is na meerdere herinneringen nog altijd niet voldaan.",
        ],
        "Dit is een laatste verzoek. Voldoet u het volledige bedrag vandaag.",
        "De herinneringen worden voortgezet totdat de betaling is ontvangen. Heeft u inmiddels betaald? Dan kunt u deze herinnering als niet verzonden beschouwen.",
      ],
    },
  },

  // Sent again and again at a daily or weekly frequency, so it says reminders will repeat; sent once
  // ('now'), resolveCopy leaves those sentences out.
  single: {
    1: {
      subject: [
        "Herinnering: factuur {invoiceNumber} van {amount}",
        "Herinnering: {invoiceCount}, openstaand saldo van {amount}",
        "Herinnering: openstaand saldo van {amount}",
      ],
      heading: "Een vriendelijke herinnering",
      paragraphs: [
        [
          "Wij herinneren u er graag aan dat een saldo van {amount}, met vervaldatum {dueDate}, nog openstaat; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u er graag aan dat een saldo van {amount} voor de {invoiceCount} hieronder nog openstaat; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u er graag aan dat een saldo van {amount}, met vervaldatum {dueDate}, nog openstaat.",
          "Wij herinneren u er graag aan dat een saldo van {amount} voor de {invoiceCount} hieronder nog openstaat.",
          "Wij herinneren u er graag aan dat een saldo van {amount} nog openstaat.",
        ],
        "Wilt u de betaling regelen wanneer het u uitkomt? Heeft u inmiddels betaald? Dan danken wij u hartelijk en kunt u dit bericht als niet verzonden beschouwen.",
        "Heeft u vragen? U kunt gewoon op deze e-mail reageren.",
      ],
    },
    2: {
      subject: [
        "Herinnering: factuur {invoiceNumber} ({amount}) staat open",
        "Herinnering: {invoiceCount} ({amount}) staan open",
        "Herinnering: openstaand saldo van {amount}",
      ],
      heading: "Openstaand saldo",
      paragraphs: [
        [
          "Wij herinneren u eraan dat een saldo van {amount}, met vervaldatum {dueDate}, nog openstaat; de betaaltermijn is inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u eraan dat een saldo van {amount} voor de {invoiceCount} hieronder nog openstaat; bij de oudste is de betaaltermijn inmiddels met {daysOverdue} overschreden.",
          "Wij herinneren u eraan dat een saldo van {amount}, met vervaldatum {dueDate}, nog openstaat.",
          "Wij herinneren u eraan dat een saldo van {amount} voor de {invoiceCount} hieronder nog openstaat.",
          "Wij herinneren u eraan dat een saldo van {amount} nog openstaat.",
        ],
        "Wij verzoeken u het volledige bedrag zo spoedig mogelijk te voldoen. Heeft u inmiddels betaald? Dan kunt u dit bericht als niet verzonden beschouwen.",
        "Er worden regelmatig herinneringen verstuurd totdat het saldo is voldaan.",
      ],
    },
    3: {
      subject: [
        "Betaling vereist: factuur {invoiceNumber} van {amount}",
        "Betaling vereist: {invoiceCount}, saldo van {amount}",
        "Betaling vereist: saldo van {amount}",
      ],
      heading: "Openstaand saldo: betaling vereist",
      paragraphs: [
        [
          "Een saldo van {amount}, met vervaldatum {dueDate}, is nog altijd onbetaald; de betaaltermijn is met {daysOverdue} overschreden.",
          "Een saldo van {amount} voor de {invoiceCount} hieronder is nog altijd onbetaald; bij de oudste is de betaaltermijn met {daysOverdue} overschreden.",
          "Een saldo van {amount}, met vervaldatum {dueDate}, is nog altijd onbetaald.",
          "Een saldo van {amount} voor de {invoiceCount} hieronder is nog altijd onbetaald.",
          "Een saldo van {amount} is nog altijd onbetaald.",
        ],
        "Voldoet u het volledige bedrag per omgaande.",
        "Er volgen verdere herinneringen totdat het saldo is voldaan.",
      ],
    },
  },
};

/**
 * The wording before the due date (and on it) of the initial reminder and the escalating ones,
 * per tone: a note that a payment is due, nothing late about it, so no escalation either (a
 * follow-up or a final notice before the due date would say what is not true).
 */
const DUE_SOON_COPY: Record<Tone, TemplateCopy> = {
  1: {
    subject: [
      "Aankomende betaling: factuur {invoiceNumber} van {amount}",
      "Aankomende betaling: {amount}, vervaldatum {dueDate}",
      "Aankomende betaling: {invoiceCount}, {amount}",
      "Aankomende betaling van {amount}",
    ],
    heading: "Even ter herinnering",
    paragraphs: [
      [
        "Graag attenderen wij u op de betaling van {amount}, met vervaldatum {dueDate}.",
        "Graag attenderen wij u op de betaling van {amount} voor de {invoiceCount} hieronder, met de daarbij vermelde vervaldata.",
        "Graag attenderen wij u op een betaling van {amount} waarvan de vervaldatum nadert.",
      ],
      "Heeft u dit al geregeld? Dan danken wij u hartelijk en kunt u dit bericht als niet verzonden beschouwen.",
      "Heeft u vragen? U kunt gewoon op deze e-mail reageren.",
    ],
  },
  2: {
    subject: [
      "Aankomende vervaldatum: factuur {invoiceNumber} van {amount}",
      "Aankomende vervaldatum: {amount} op {dueDate}",
      "Aankomende vervaldata: {invoiceCount}, {amount}",
      "Aankomende vervaldatum: {amount}",
    ],
    heading: "Aankomende vervaldatum",
    paragraphs: [
      [
        "Wij herinneren u eraan dat de betaling van {amount} uiterlijk {dueDate} dient te zijn voldaan.",
        "Wij herinneren u eraan dat de betaling van {amount} voor de {invoiceCount} hieronder uiterlijk op de daarbij vermelde vervaldata dient te zijn voldaan.",
        "Wij herinneren u eraan dat de vervaldatum van een betaling van {amount} nadert.",
      ],
      "Wij verzoeken u de betaling uiterlijk op de vervaldatum te voldoen. Heeft u al betaald? Dan kunt u dit bericht als niet verzonden beschouwen.",
      "Heeft u vragen? Beantwoord dan deze e-mail.",
    ],
  },
  3: {
    subject: [
      "Te betalen uiterlijk {dueDate}: factuur {invoiceNumber}, {amount}",
      "Te betalen uiterlijk {dueDate}: {amount}",
      "Te betalen: {invoiceCount}, {amount}",
      "Binnenkort te betalen: {amount}",
    ],
    heading: "Betaling verschuldigd",
    paragraphs: [
      [
        "De betaling van {amount} dient uiterlijk {dueDate} te zijn voldaan.",
        "De betaling van {amount} voor de {invoiceCount} hieronder dient uiterlijk op de daarbij vermelde vervaldata te zijn voldaan.",
        "De vervaldatum van een betaling van {amount} nadert.",
      ],
      "Voldoet u het volledige bedrag uiterlijk op de vervaldatum.",
      "Er volgen verdere herinneringen totdat de betaling is ontvangen.",
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
        "Herinnering: factuur {invoiceNumber} van {amount}, vervaldatum {dueDate}",
        "Herinnering: {amount}, vervaldatum {dueDate}",
        "Herinnering: {invoiceCount}, saldo van {amount} binnenkort te betalen",
        "Herinnering: saldo van {amount} binnenkort te betalen",
      ],
      heading: "Een vriendelijke herinnering",
      paragraphs: [
        [
          "Wij herinneren u er graag aan dat een saldo van {amount} uiterlijk {dueDate} dient te zijn voldaan.",
          "Wij herinneren u er graag aan dat een saldo van {amount} voor de {invoiceCount} hieronder uiterlijk op de daarbij vermelde vervaldata dient te zijn voldaan.",
          "Wij herinneren u er graag aan dat de vervaldatum van een saldo van {amount} nadert.",
        ],
        "Wilt u de betaling, wanneer het u uitkomt, uiterlijk op de vervaldatum regelen? Heeft u al betaald? Dan danken wij u hartelijk en kunt u dit bericht als niet verzonden beschouwen.",
        "Heeft u vragen? U kunt gewoon op deze e-mail reageren.",
      ],
    },
    2: {
      subject: [
        "Herinnering: factuur {invoiceNumber} ({amount}) uiterlijk {dueDate} te betalen",
        "Herinnering: {amount} uiterlijk {dueDate} te betalen",
        "Herinnering: {invoiceCount} ({amount}) binnenkort te betalen",
        "Herinnering: saldo van {amount} binnenkort te betalen",
      ],
      heading: "Saldo binnenkort te betalen",
      paragraphs: [
        [
          "Wij herinneren u eraan dat een saldo van {amount} uiterlijk {dueDate} dient te zijn voldaan.",
          "Wij herinneren u eraan dat een saldo van {amount} voor de {invoiceCount} hieronder uiterlijk op de daarbij vermelde vervaldata dient te zijn voldaan.",
          "Wij herinneren u eraan dat de vervaldatum van een saldo van {amount} nadert.",
        ],
        "Wij verzoeken u de betaling uiterlijk op de vervaldatum te voldoen. Heeft u al betaald? Dan kunt u dit bericht als niet verzonden beschouwen.",
        "Er worden regelmatig herinneringen verstuurd totdat het saldo is voldaan.",
      ],
    },
    3: {
      subject: [
        "Betaling vereist uiterlijk {dueDate}: factuur {invoiceNumber}, {amount}",
        "Betaling vereist uiterlijk {dueDate}: {amount}",
        "Betaling vereist: {invoiceCount}, saldo van {amount} binnenkort te betalen",
        "Betaling vereist: saldo van {amount} binnenkort te betalen",
      ],
      heading: "Saldo binnenkort te betalen: betaling vereist",
      paragraphs: [
        [
          "Een saldo van {amount} dient uiterlijk {dueDate} te zijn voldaan.",
          "Een saldo van {amount} voor de {invoiceCount} hieronder dient uiterlijk op de daarbij vermelde vervaldata te zijn voldaan.",
          "De vervaldatum van een saldo van {amount} nadert.",
        ],
        "Voldoet u het volledige bedrag uiterlijk op de vervaldatum.",
        "Er volgen verdere herinneringen totdat het saldo is voldaan.",
      ],
    },
  },
};

/** Footer of every reminder: who sent it and how to reach them. */
const FOOTER_COPY: Line = [
  "Verzonden door {senderName}. Beantwoord deze e-mail om de afzender te bereiken.",
  "Beantwoord deze e-mail om de afzender te bereiken.",
];

/**
 * The opt-out line under the footer of every reminder: the question, then a
 * link to the signed opt-out page with `link` as its text.
 */
const OPT_OUT_COPY = { question: "Wilt u deze herinneringen niet meer ontvangen?", link: "Meld u hier af" } as const;

/**
 * Paying from the reminder: the 'Pay now' button to the sender's payment page (only when
 * they set one), and the line with the "I've paid" link (every reminder), which tells the sender
 * and pauses the reminders. A one-time reminder's line (`paidQuestionOnce`) speaks of no reminders to
 * pause: none follows. The same words in every tone.
 */
const PAY_COPY = {
  button: "Nu betalen",
  paidQuestion: [
    "Al betaald? Laat het {senderName} weten, dan worden de herinneringen gepauzeerd:",
    "Al betaald? Laat het de afzender weten, dan worden de herinneringen gepauzeerd:",
  ] as Line,
  paidQuestionOnce: ["Al betaald? Laat het {senderName} weten:", "Al betaald? Laat het de afzender weten:"] as Line,
  paidLink: "Ik heb betaald",
} as const;

/**
 * The sentences that announce more reminders ("Er volgen verdere herinneringen…", "De
 * herinneringen worden voortgezet…", "Er worden regelmatig herinneringen verstuurd…"): a one-time
 * reminder leaves them out, since none follows.
 */
const REPEAT_NOTICE =
  /(?:Er volgen verdere herinneringen|De herinneringen worden voortgezet|Er worden regelmatig herinneringen verstuurd)[^.]*\.\s*/g;

/**
 * A debtor's first reminder may be a firmer one (an invoice that joins a cadence late gets the step
 * its age calls for, decisions/048): it must not speak of reminders the debtor never got. These
 * rewrite the firmer templates' mentions of earlier contact, keeping their tone.
 */
const FIRST_CONTACT: readonly FirstContactRule[] = [
  [/^Nog even over (?:een )?/, "Herinnering: "],
  [/^Nog even ter herinnering$/, "Betalingsherinnering"],
  [/^Wij komen even terug op de nog openstaande betaling/, "Wij herinneren u graag aan de nog openstaande betaling"],
  [/^Vervolgherinnering: /, "Herinnering: "],
  [/^Wij herinneren u er nogmaals aan dat/, "Wij herinneren u eraan dat"],
  [/ ondanks een eerdere herinnering/g, ""],
  [/^Opnieuw een herinnering: /, "Herinnering: "],
  [/^Opnieuw een herinnering$/, "Een herinnering"],
  [/^Wij herinneren u opnieuw aan/, "Wij herinneren u aan"],
  [/ ondanks eerdere herinneringen/g, ""],
  [/ na meerdere herinneringen/g, ""],
];

/** The fixed texts of a reminder (emails/reminder.tsx) and its statement's labels: ICU messages. */
const LABELS = {
  invoiceHeading: "Factuur",
  dueDateHeading: "Vervaldatum",
  balanceHeading: "Saldo",
  statusHeading: "Status",
  totalDue: "Totaal te betalen",
  totalDueIn: "Totaal te betalen in {currency}",
  moreInvoices: "en nog {count, plural, one {# factuur} other {# facturen}}, opgenomen in het totaal",
  invoiceDue: "Factuur met vervaldatum {date}",
  theInvoiceDue: "de factuur met vervaldatum {date}",
  apartLine: "{invoice} ({balance}, vervaldatum {date})",
  notChased:
    "Zoals afgesproken niet opgenomen in deze herinnering: {invoices}. Dit bedrag is niet meegeteld in het totaal hierboven.",
  claimedPaid:
    "U heeft ons laten weten dat u {invoices} heeft betaald. {senderName} controleert {count, plural, one {deze betaling; daarom is die niet meegeteld} other {deze betalingen; daarom zijn die niet meegeteld}} in het totaal hierboven.",
  payByBank: "Betalen per bankoverschrijving",
  payByBankIn: "Betalen per bankoverschrijving ({currency})",
  reference: "Omschrijving",
  viewStatement: "Bekijk uw overzicht / reageer",
  contact: "Contact:",
  days: "{count, plural, one {# dag} other {# dagen}}",
  invoices: "{count, plural, one {# factuur} other {# facturen}}",
  dueToday: "vandaag te betalen",
  daysOverdue: "{count, plural, one {# dag} other {# dagen}} te laat",
  dueIn: "over {count, plural, one {# dag} other {# dagen}} te betalen",
  sentBy: "Verstuurd door Dunly.",
} as const;

export const NL: ReminderCopySet = {
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
