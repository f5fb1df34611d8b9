import type { Catalogue } from "../../app/domain/i18n";
import type { TemplateId } from "../../app/domain/presets";
import type { Tone } from "../../app/domain/strategies";
import type { LabelKey } from "./en";
import type { FirstContactRule, Line, ReminderCopySet, TemplateCopy, ToneFrame } from "./types";

/**
 * French (France, formal "vous"): a line-for-line translation of emails/copy/en.ts, with exactly
 * its lines, alternatives and arguments (catalogueProblems, emails/copy/copy.test.ts). The values
 * arrive already written in French: {daysOverdue} "12 jours", {invoiceCount} "3 factures",
 * {amount} "1 234,56 €", {dueDate} "5 mars 2027". Typography: a no-break space (U+00A0) before
 * ":", ";" and "?", and the typographic apostrophe ’ throughout (no ICU quoting needed in LABELS).
 * "due on {dueDate}" is "à échéance du {dueDate}", which reads right before and after that date.
 */

const TONE_FRAME: Record<Tone, ToneFrame> = {
  1: {
    greeting: ["Bonjour {contactName},", "Bonjour {receiverName},", "Bonjour,"],
    signOff: "Avec nos remerciements, bien cordialement,",
  },
  2: { greeting: ["Bonjour {contactName},", "Bonjour {receiverName},", "Bonjour,"], signOff: "Bien cordialement," },
  3: { greeting: ["{contactName},", "{receiverName},", "Madame, Monsieur,"], signOff: "Cordialement," },
};

const REMINDER_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: {
    1: {
      subject: [
        "Petit rappel : facture {invoiceNumber} de {amount}",
        "Petit rappel : {invoiceCount}, {amount}",
        "Petit rappel : paiement de {amount}",
      ],
      heading: "Un petit rappel",
      paragraphs: [
        [
          "Nous nous permettons de vous rappeler amicalement le paiement de {amount}, à échéance du {dueDate}, qui a désormais {daysOverdue} de retard.",
          "Nous nous permettons de vous rappeler amicalement le paiement de {amount} pour les {invoiceCount} ci-dessous, dont la plus ancienne a désormais {daysOverdue} de retard.",
          "Nous nous permettons de vous rappeler amicalement le paiement de {amount}, à échéance du {dueDate}.",
          "Nous nous permettons de vous rappeler amicalement le paiement de {amount} pour les {invoiceCount} ci-dessous.",
          "Nous nous permettons de vous rappeler amicalement qu’un paiement de {amount} est en attente.",
        ],
        "Si le nécessaire a déjà été fait, merci, et veuillez ne pas tenir compte de ce message.",
        "Pour toute question, il vous suffit de répondre à cet e-mail.",
      ],
    },
    2: {
      subject: [
        "Rappel de paiement : facture {invoiceNumber} de {amount}",
        "Rappel de paiement : {invoiceCount}, {amount}",
        "Rappel de paiement : {amount}",
      ],
      heading: "Rappel de paiement",
      paragraphs: [
        [
          "Nous vous rappelons que le paiement de {amount}, à échéance du {dueDate}, accuse un retard de {daysOverdue} et ne nous est pas encore parvenu.",
          "Nous vous rappelons que le paiement de {amount} pour les {invoiceCount} ci-dessous ne nous est pas encore parvenu ; la plus ancienne accuse un retard de {daysOverdue}.",
          "Nous vous rappelons que le paiement de {amount}, à échéance du {dueDate}, ne nous est pas encore parvenu.",
          "Nous vous rappelons que le paiement de {amount} pour les {invoiceCount} ci-dessous ne nous est pas encore parvenu.",
          "Nous vous rappelons qu’un paiement de {amount} ne nous est pas encore parvenu.",
        ],
        "Merci de bien vouloir procéder au règlement dans les meilleurs délais. Si vous avez déjà payé, veuillez ne pas tenir compte de ce message.",
        "Pour toute question, vous pouvez répondre à cet e-mail.",
      ],
    },
    3: {
      subject: [
        "Paiement exigible : facture {invoiceNumber} de {amount}",
        "Paiement exigible : {invoiceCount}, {amount}",
        "Paiement exigible : {amount}",
      ],
      heading: "Paiement exigible",
      paragraphs: [
        [
          "Le paiement de {amount}, à échéance du {dueDate}, accuse un retard de {daysOverdue} et ne nous est pas parvenu.",
          "Le paiement de {amount} pour les {invoiceCount} ci-dessous ne nous est pas parvenu ; la plus ancienne accuse un retard de {daysOverdue}.",
          "Le paiement de {amount}, à échéance du {dueDate}, ne nous est pas parvenu.",
          "Le paiement de {amount} pour les {invoiceCount} ci-dessous ne nous est pas parvenu.",
          "Un paiement de {amount} reste dû et ne nous est pas parvenu.",
        ],
        "Veuillez régler la totalité du montant sans délai.",
        "D’autres relances suivront jusqu’à réception du paiement.",
      ],
    },
  },

  "follow-up": {
    1: {
      subject: [
        "Petite relance : facture {invoiceNumber} de {amount}",
        "Petite relance : {invoiceCount}, {amount}",
        "Petite relance : paiement de {amount}",
      ],
      heading: "Petite relance",
      paragraphs: [
        [
          "Nous revenons vers vous au sujet du paiement de {amount}, à échéance du {dueDate}, qui est toujours en attente et a désormais {daysOverdue} de retard.",
          "Nous revenons vers vous au sujet du paiement de {amount} pour les {invoiceCount} ci-dessous, qui est toujours en attente ; la plus ancienne a désormais {daysOverdue} de retard.",
          "Nous revenons vers vous au sujet du paiement de {amount}, à échéance du {dueDate}, qui est toujours en attente.",
          "Nous revenons vers vous au sujet du paiement de {amount} pour les {invoiceCount} ci-dessous, qui est toujours en attente.",
          "Nous revenons vers vous au sujet du paiement de {amount}, qui est toujours en attente.",
        ],
        "Il vous a peut-être simplement échappé. Pourriez-vous vous en occuper dès que vous aurez un moment ? Si le règlement est déjà en cours, merci, et veuillez ne pas tenir compte de ce message.",
        "Pour toute précision, il vous suffit de répondre à cet e-mail.",
      ],
    },
    2: {
      subject: [
        "Relance : facture {invoiceNumber} ({amount}) toujours en attente de règlement",
        "Relance : {invoiceCount} ({amount}) toujours en attente de règlement",
        "Relance : {amount} toujours en attente de règlement",
      ],
      heading: "Paiement toujours en attente",
      paragraphs: [
        [
          "Suite à notre précédent rappel, nous constatons que le paiement de {amount}, à échéance du {dueDate}, est toujours en attente et accuse désormais un retard de {daysOverdue}.",
          "Suite à notre précédent rappel, nous constatons que le paiement de {amount} pour les {invoiceCount} ci-dessous est toujours en attente ; la plus ancienne accuse désormais un retard de {daysOverdue}.",
          "Suite à notre précédent rappel, nous constatons que le paiement de {amount}, à échéance du {dueDate}, est toujours en attente.",
          "Suite à notre précédent rappel, nous constatons que le paiement de {amount} pour les {invoiceCount} ci-dessous est toujours en attente.",
          "Suite à notre précédent rappel, nous constatons que le paiement de {amount} est toujours en attente.",
        ],
        "Merci de régler la totalité du montant dans les plus brefs délais. Si vous avez déjà payé, veuillez ne pas tenir compte de ce message.",
        "Si une difficulté vous empêche de payer, répondez à cet e-mail afin que nous trouvions une solution.",
      ],
    },
    3: {
      subject: [
        "Impayé : facture {invoiceNumber} de {amount}, à régler immédiatement",
        "Impayé : {invoiceCount}, {amount}, à régler immédiatement",
        "Impayé : {amount}, à régler immédiatement",
      ],
      heading: "Paiement toujours en attente",
      paragraphs: [
        [
          "Le paiement de {amount}, à échéance du {dueDate}, accuse un retard de {daysOverdue} et n’a toujours pas été effectué malgré un précédent rappel.",
          "Le paiement de {amount} pour les {invoiceCount} ci-dessous n’a toujours pas été effectué malgré un précédent rappel ; la plus ancienne accuse un retard de {daysOverdue}.",
          "Le paiement de {amount}, à échéance du {dueDate}, n’a toujours pas été effectué malgré un précédent rappel.",
          "Le paiement de {amount} pour les {invoiceCount} ci-dessous n’a toujours pas été effectué malgré un précédent rappel.",
          "Le paiement de {amount} n’a toujours pas été effectué malgré un précédent rappel.",
        ],
        "Veuillez régler dès maintenant la totalité du montant.",
        "D’autres relances suivront jusqu’à réception du paiement.",
      ],
    },
  },

  "second-follow-up": {
    1: {
      subject: [
        "Nouveau rappel : facture {invoiceNumber} de {amount}",
        "Nouveau rappel : {invoiceCount}, {amount}",
        "Nouveau rappel : {amount} toujours en attente",
      ],
      heading: "Nouveau rappel",
      paragraphs: [
        [
          "Nous vous adressons un nouveau rappel concernant le paiement de {amount}, à échéance du {dueDate}, qui est toujours en attente et a désormais {daysOverdue} de retard.",
          "Nous vous adressons un nouveau rappel concernant le paiement de {amount} pour les {invoiceCount} ci-dessous, qui est toujours en attente ; la plus ancienne a désormais {daysOverdue} de retard.",
          "Nous vous adressons un nouveau rappel concernant le paiement de {amount}, à échéance du {dueDate}, qui est toujours en attente.",
          "Nous vous adressons un nouveau rappel concernant le paiement de {amount} pour les {invoiceCount} ci-dessous, qui est toujours en attente.",
          "Nous vous adressons un nouveau rappel concernant le paiement de {amount}, qui est toujours en attente.",
        ],
        "Merci de bien vouloir procéder rapidement au règlement. En cas de difficulté, il vous suffit de répondre à cet e-mail afin que nous trouvions ensemble une solution.",
        "Si vous avez déjà payé, merci, et veuillez ne pas tenir compte de ce message.",
      ],
    },
    2: {
      subject: [
        "Action requise : facture {invoiceNumber} ({amount}) toujours impayée",
        "Action requise : {invoiceCount} ({amount}) toujours impayées",
        "Action requise : montant de {amount} toujours impayé",
      ],
      heading: "Action requise",
      paragraphs: [
        [
          "Malgré nos précédents rappels, le paiement de {amount}, à échéance du {dueDate}, est toujours en attente et accuse désormais un retard de {daysOverdue}.",
          "Malgré nos précédents rappels, le paiement de {amount} pour les {invoiceCount} ci-dessous est toujours en attente ; la plus ancienne accuse désormais un retard de {daysOverdue}.",
          "Malgré nos précédents rappels, le paiement de {amount}, à échéance du {dueDate}, est toujours en attente.",
          "Malgré nos précédents rappels, le paiement de {amount} pour les {invoiceCount} ci-dessous est toujours en attente.",
          "Malgré nos précédents rappels, le paiement de {amount} est toujours en attente.",
        ],
        "Veuillez régler dès maintenant la totalité du montant, ou répondre à cet e-mail en cas de difficulté de paiement.",
        "Si vous avez déjà payé, veuillez ne pas tenir compte de ce message.",
      ],
    },
    3: {
      subject: [
        "Paiement requis : facture {invoiceNumber} de {amount} impayée",
        "Paiement requis : {invoiceCount} impayées, {amount}",
        "Paiement requis : montant de {amount} impayé",
      ],
      heading: "Paiement requis",
      paragraphs: [
        [
          "Malgré nos précédents rappels, la somme de {amount}, à échéance du {dueDate}, reste impayée et accuse un retard de {daysOverdue}.",
          "Malgré nos précédents rappels, la somme de {amount} pour les {invoiceCount} ci-dessous reste impayée ; la plus ancienne accuse un retard de {daysOverdue}.",
          "Malgré nos précédents rappels, la somme de {amount}, à échéance du {dueDate}, reste impayée.",
          "Malgré nos précédents rappels, la somme de {amount} pour les {invoiceCount} ci-dessous reste impayée.",
          "Malgré nos précédents rappels, la somme de {amount} reste impayée.",
        ],
        "Veuillez régler la totalité du montant dès aujourd’hui.",
        "Les relances se poursuivront jusqu’à réception du paiement.",
      ],
    },
  },

  // The final notice repeats until the schedule is cancelled, so it never says "last e-mail".
  "final-notice": {
    1: {
      subject: [
        "Dernier rappel : facture {invoiceNumber} de {amount}",
        "Dernier rappel : {invoiceCount}, {amount}",
        "Dernier rappel : paiement de {amount}",
      ],
      heading: "Dernier rappel",
      paragraphs: [
        [
          "Nous vous adressons un dernier rappel concernant le paiement de {amount}, à échéance du {dueDate}, qui est toujours en attente et a désormais {daysOverdue} de retard.",
          "Nous vous adressons un dernier rappel concernant le paiement de {amount} pour les {invoiceCount} ci-dessous, qui est toujours en attente ; la plus ancienne a désormais {daysOverdue} de retard.",
          "Nous vous adressons un dernier rappel concernant le paiement de {amount}, à échéance du {dueDate}, qui est toujours en attente.",
          "Nous vous adressons un dernier rappel concernant le paiement de {amount} pour les {invoiceCount} ci-dessous, qui est toujours en attente.",
          "Nous vous adressons un dernier rappel concernant le paiement de {amount}, qui est toujours en attente.",
        ],
        "Merci de régler la totalité du montant dès que possible. Si une difficulté vous empêche de payer, répondez à cet e-mail afin que nous puissions en discuter.",
        "Si vous avez déjà payé, merci, et veuillez ne pas tenir compte de ce rappel.",
      ],
    },
    2: {
      subject: [
        "Dernier rappel : facture {invoiceNumber} ({amount}) toujours impayée",
        "Dernier rappel : {invoiceCount} ({amount}) toujours impayées",
        "Dernier rappel : montant de {amount} toujours impayé",
      ],
      heading: "Dernier rappel",
      paragraphs: [
        [
          "Nous vous adressons un dernier rappel : le paiement de {amount}, à échéance du {dueDate}, accuse un retard de {daysOverdue} et reste en attente après plusieurs relances.",
          "Nous vous adressons un dernier rappel : le paiement de {amount} pour les {invoiceCount} ci-dessous reste en attente après plusieurs relances ; la plus ancienne accuse un retard de {daysOverdue}.",
          "Nous vous adressons un dernier rappel : le paiement de {amount}, à échéance du {dueDate}, reste en attente après plusieurs relances.",
          "Nous vous adressons un dernier rappel : le paiement de {amount} pour les {invoiceCount} ci-dessous reste en attente après plusieurs relances.",
          "Nous vous adressons un dernier rappel : le paiement de {amount} reste en attente après plusieurs relances.",
        ],
        "Veuillez régler dès maintenant la totalité du montant. Si vous ne pouvez pas payer l’intégralité, répondez dès aujourd’hui à cet e-mail pour en discuter.",
        "Si vous avez déjà payé, veuillez ne pas tenir compte de ce rappel.",
      ],
    },
    3: {
      subject: [
        "Dernier rappel : facture {invoiceNumber} ({amount}) à régler aujourd’hui",
        "Dernier rappel : {invoiceCount} ({amount}) à régler aujourd’hui",
        "Dernier rappel : {amount} à régler aujourd’hui",
      ],
      heading: "Dernier rappel : paiement requis aujourd’hui",
      paragraphs: [
        [
          "La somme de {amount}, à échéance du {dueDate}, accuse un retard de {daysOverdue} et reste impayée après plusieurs relances.",
          "La somme de {amount} pour les {invoiceCount} ci-dessous reste impayée après plusieurs relances ; la plus ancienne accuse un retard de {daysOverdue}.",
          "La somme de {amount}, à échéance du {dueDate}, reste impayée après plusieurs relances.",
          "La somme de {amount} pour les {invoiceCount} ci-dessous reste impayée après plusieurs relances.",
          "La somme de {amount} reste impayée après plusieurs relances.",
        ],
        "Il s’agit d’une dernière demande. Veuillez régler la totalité du montant dès aujourd’hui.",
        "Les relances se poursuivront jusqu’à réception du paiement. Si vous avez déjà payé, ne tenez pas compte de ce rappel.",
      ],
    },
  },

  // Sent again and again at a daily or weekly frequency, so it says reminders will repeat; sent once
  // ('now'), resolveCopy leaves those sentences out.
  single: {
    1: {
      subject: [
        "Rappel : facture {invoiceNumber} de {amount}",
        "Rappel : {invoiceCount}, solde restant dû de {amount}",
        "Rappel : solde restant dû de {amount}",
      ],
      heading: "Un petit rappel",
      paragraphs: [
        [
          "Nous nous permettons de vous rappeler qu’un solde de {amount}, à échéance du {dueDate}, reste à régler et a désormais {daysOverdue} de retard.",
          "Nous nous permettons de vous rappeler qu’un solde de {amount} pour les {invoiceCount} ci-dessous reste à régler ; la plus ancienne a désormais {daysOverdue} de retard.",
          "Nous nous permettons de vous rappeler qu’un solde de {amount}, à échéance du {dueDate}, reste à régler.",
          "Nous nous permettons de vous rappeler qu’un solde de {amount} pour les {invoiceCount} ci-dessous reste à régler.",
          "Nous nous permettons de vous rappeler qu’un solde de {amount} reste à régler.",
        ],
        "Merci de procéder au règlement dès que vous aurez un moment. Si vous avez déjà payé, merci, et veuillez ne pas tenir compte de ce message.",
        "Pour toute question, il vous suffit de répondre à cet e-mail.",
      ],
    },
    2: {
      subject: [
        "Rappel : facture {invoiceNumber} ({amount}) en attente de règlement",
        "Rappel : {invoiceCount} ({amount}) en attente de règlement",
        "Rappel : solde de {amount} en attente de règlement",
      ],
      heading: "Solde restant dû",
      paragraphs: [
        [
          "Nous vous rappelons qu’un solde de {amount}, à échéance du {dueDate}, est toujours en attente de règlement et accuse désormais un retard de {daysOverdue}.",
          "Nous vous rappelons qu’un solde de {amount} pour les {invoiceCount} ci-dessous est toujours en attente de règlement ; la plus ancienne accuse désormais un retard de {daysOverdue}.",
          "Nous vous rappelons qu’un solde de {amount}, à échéance du {dueDate}, est toujours en attente de règlement.",
          "Nous vous rappelons qu’un solde de {amount} pour les {invoiceCount} ci-dessous est toujours en attente de règlement.",
          "Nous vous rappelons qu’un solde de {amount} est toujours en attente de règlement.",
        ],
        "Merci de régler la totalité du montant dans les plus brefs délais. Si vous avez déjà payé, veuillez ne pas tenir compte de ce message.",
        "Des relances vous seront envoyées régulièrement jusqu’au règlement du solde.",
      ],
    },
    3: {
      subject: [
        "Paiement requis : facture {invoiceNumber} de {amount}",
        "Paiement requis : {invoiceCount}, solde de {amount}",
        "Paiement requis : solde de {amount}",
      ],
      heading: "Solde restant dû : paiement requis",
      paragraphs: [
        [
          "Un solde de {amount}, à échéance du {dueDate}, accuse un retard de {daysOverdue} et reste impayé.",
          "Un solde de {amount} pour les {invoiceCount} ci-dessous reste impayé ; la plus ancienne accuse un retard de {daysOverdue}.",
          "Un solde de {amount}, à échéance du {dueDate}, reste impayé.",
          "Un solde de {amount} pour les {invoiceCount} ci-dessous reste impayé.",
          "Un solde de {amount} reste impayé.",
        ],
        "Veuillez régler dès maintenant la totalité du montant.",
        "D’autres relances suivront jusqu’au règlement du solde.",
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
      "Paiement à venir : facture {invoiceNumber} de {amount}",
      "Paiement à venir : {amount}, à échéance du {dueDate}",
      "Paiement à venir : {invoiceCount}, {amount}",
      "Paiement à venir : {amount}",
    ],
    heading: "Petit rappel d’échéance",
    paragraphs: [
      [
        "Un petit mot pour vous signaler que la somme de {amount} arrive à échéance le {dueDate}.",
        "Un petit mot pour vous signaler que la somme de {amount} pour les {invoiceCount} ci-dessous arrive à échéance aux dates indiquées.",
        "Un petit mot pour vous signaler qu’un paiement de {amount} arrive à échéance.",
      ],
      "Si le nécessaire a déjà été fait, merci, et veuillez ne pas tenir compte de ce message.",
      "Pour toute question, il vous suffit de répondre à cet e-mail.",
    ],
  },
  2: {
    subject: [
      "Échéance à venir : facture {invoiceNumber} de {amount}",
      "Échéance à venir : {amount} le {dueDate}",
      "Échéances à venir : {invoiceCount}, {amount}",
      "Échéance à venir : {amount}",
    ],
    heading: "Échéance à venir",
    paragraphs: [
      [
        "Nous vous rappelons que le paiement de {amount} arrive à échéance le {dueDate}.",
        "Nous vous rappelons que le paiement de {amount} pour les {invoiceCount} ci-dessous arrive à échéance aux dates indiquées.",
        "Nous vous rappelons qu’un paiement de {amount} arrive à échéance.",
      ],
      "Merci de procéder au règlement d’ici la date d’échéance. Si vous avez déjà payé, veuillez ne pas tenir compte de ce message.",
      "Pour toute question, vous pouvez répondre à cet e-mail.",
    ],
  },
  3: {
    subject: [
      "Paiement dû le {dueDate} : facture {invoiceNumber}, {amount}",
      "Paiement dû le {dueDate} : {amount}",
      "Paiements dus : {invoiceCount}, {amount}",
      "Échéance de paiement : {amount}",
    ],
    heading: "Échéance de paiement",
    paragraphs: [
      [
        "Le paiement de {amount} arrive à échéance le {dueDate}.",
        "Le paiement de {amount} pour les {invoiceCount} ci-dessous arrive à échéance aux dates indiquées.",
        "Un paiement de {amount} arrive à échéance.",
      ],
      "Veuillez régler la totalité du montant d’ici la date d’échéance.",
      "D’autres relances suivront jusqu’à réception du paiement.",
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
        "Rappel : facture {invoiceNumber} de {amount}, à échéance du {dueDate}",
        "Rappel : {amount}, à échéance du {dueDate}",
        "Rappel : {invoiceCount}, solde de {amount} arrivant à échéance",
        "Rappel : solde de {amount} arrivant à échéance",
      ],
      heading: "Un petit rappel",
      paragraphs: [
        [
          "Nous nous permettons de vous rappeler qu’un solde de {amount} arrive à échéance le {dueDate}.",
          "Nous nous permettons de vous rappeler qu’un solde de {amount} pour les {invoiceCount} ci-dessous arrive à échéance aux dates indiquées.",
          "Nous nous permettons de vous rappeler qu’un solde de {amount} arrive à échéance.",
        ],
        "Merci de procéder au règlement d’ici la date d’échéance, dès que vous aurez un moment. Si vous avez déjà payé, merci, et veuillez ne pas tenir compte de ce message.",
        "Pour toute question, il vous suffit de répondre à cet e-mail.",
      ],
    },
    2: {
      subject: [
        "Rappel : facture {invoiceNumber} ({amount}) payable le {dueDate}",
        "Rappel : {amount} payable le {dueDate}",
        "Rappel : {invoiceCount} ({amount}) arrivant à échéance",
        "Rappel : solde de {amount} arrivant à échéance",
      ],
      heading: "Solde arrivant à échéance",
      paragraphs: [
        [
          "Nous vous rappelons qu’un solde de {amount} arrive à échéance le {dueDate}.",
          "Nous vous rappelons qu’un solde de {amount} pour les {invoiceCount} ci-dessous arrive à échéance aux dates indiquées.",
          "Nous vous rappelons qu’un solde de {amount} arrive à échéance.",
        ],
        "Merci de procéder au règlement d’ici la date d’échéance. Si vous avez déjà payé, veuillez ne pas tenir compte de ce message.",
        "Des relances vous seront envoyées régulièrement jusqu’au règlement du solde.",
      ],
    },
    3: {
      subject: [
        "Paiement requis pour le {dueDate} : facture {invoiceNumber}, {amount}",
        "Paiement requis pour le {dueDate} : {amount}",
        "Paiement requis : {invoiceCount}, solde de {amount} arrivant à échéance",
        "Paiement requis : solde de {amount} arrivant à échéance",
      ],
      heading: "Solde arrivant à échéance : paiement requis",
      paragraphs: [
        [
          "Un solde de {amount} arrive à échéance le {dueDate}.",
          "Un solde de {amount} pour les {invoiceCount} ci-dessous arrive à échéance aux dates indiquées.",
          "Un solde de {amount} arrive à échéance.",
        ],
        "Veuillez régler la totalité du montant d’ici la date d’échéance.",
        "D’autres relances suivront jusqu’au règlement du solde.",
      ],
    },
  },
};

/** Footer of every reminder: who sent it and how to reach them. */
const FOOTER_COPY: Line = [
  "Envoyé par {senderName}. Pour joindre l’expéditeur, répondez à cet e-mail.",
  "Pour joindre l’expéditeur, répondez à cet e-mail.",
];

/**
 * The opt-out line under the footer of every reminder: the question, then a
 * link to the signed opt-out page with `link` as its text.
 */
const OPT_OUT_COPY = { question: "Vous ne souhaitez plus recevoir ces rappels ?", link: "Les désactiver ici" } as const;

/**
 * Paying from the reminder: the 'Pay now' button to the sender's payment page (only when
 * they set one), and the line with the "I've paid" link (every reminder), which tells the sender
 * and pauses the reminders. A one-time reminder's line (`paidQuestionOnce`) speaks of no reminders to
 * pause: none follows. The same words in every tone.
 */
const PAY_COPY = {
  button: "Payer maintenant",
  paidQuestion: [
    "Vous avez déjà payé ? Prévenez {senderName} et les rappels seront suspendus :",
    "Vous avez déjà payé ? Prévenez l’expéditeur et les rappels seront suspendus :",
  ] as Line,
  paidQuestionOnce: [
    "Vous avez déjà payé ? Prévenez {senderName} :",
    "Vous avez déjà payé ? Prévenez l’expéditeur :",
  ] as Line,
  paidLink: "J’ai payé",
} as const;

/**
 * The sentences that announce more reminders ("D’autres relances suivront…", "Les relances se
 * poursuivront…", "Des relances vous seront envoyées régulièrement…"): a one-time reminder leaves
 * them out, since none follows.
 */
const REPEAT_NOTICE =
  /(?:D[’']autres relances suivront|Les relances se poursuivront|Des relances vous seront envoyées régulièrement)[^.]*\.\s*/g;

/**
 * A debtor's first reminder may be a firmer one (an invoice that joins a cadence late gets the step
 * its age calls for, decisions/048): it must not speak of reminders the debtor never got. These
 * rewrite the firmer templates' mentions of earlier contact, keeping their tone. `\s` before a
 * colon also matches the no-break space.
 */
const FIRST_CONTACT: readonly FirstContactRule[] = [
  [/^Petite relance\s:\s/, "Petit rappel : "],
  [/^Petite relance$/, "Un petit rappel"],
  [/^Nous revenons vers vous au sujet du paiement/, "Nous vous écrivons au sujet du paiement"],
  [/^Relance\s:\s/, "Rappel : "],
  [/^Suite à notre précédent rappel, nous constatons/, "Nous constatons"],
  [/ malgré un précédent rappel/g, ""],
  [/^Nouveau rappel\s:\s/, "Rappel : "],
  [/^Nouveau rappel$/, "Un petit rappel"],
  [/^Nous vous adressons un nouveau rappel/, "Nous vous adressons un rappel"],
  [/^Malgré nos précédents rappels, (\S)/, (_match, first) => first.toUpperCase()],
  [/ après plusieurs relances/g, ""],
];

/** The fixed texts of a reminder (emails/reminder.tsx) and its statement's labels: ICU messages. */
const LABELS = {
  invoiceHeading: "Facture",
  dueDateHeading: "Échéance",
  balanceHeading: "Solde",
  statusHeading: "Statut",
  totalDue: "Total dû",
  totalDueIn: "Total dû en {currency}",
  moreInvoices: "et {count, plural, one {# autre facture, incluse} other {# autres factures, incluses}} dans le total",
  invoiceDue: "Facture à échéance du {date}",
  theInvoiceDue: "la facture à échéance du {date}",
  apartLine: "{invoice} ({balance}, à échéance du {date})",
  notChased:
    "Comme convenu, ce rappel ne porte pas sur : {invoices}. Ce montant n’est pas compris dans le total ci-dessus.",
  claimedPaid:
    "Vous nous avez indiqué avoir payé {invoices}. {senderName} procède à la vérification ; {count, plural, one {elle n’est donc pas comprise} other {elles ne sont donc pas comprises}} dans le total ci-dessus.",
  payByBank: "Payer par virement bancaire",
  payByBankIn: "Payer par virement bancaire ({currency})",
  reference: "Référence",
  viewStatement: "Consulter votre relevé / répondre",
  contact: "Contact :",
  days: "{count, plural, one {# jour} other {# jours}}",
  invoices: "{count, plural, one {# facture} other {# factures}}",
  dueToday: "à échéance aujourd’hui",
  daysOverdue: "en retard de {count, plural, one {# jour} other {# jours}}",
  dueIn: "à échéance dans {count, plural, one {# jour} other {# jours}}",
  sentBy: "Envoyé par Dunly.",
} as const;

export const FR: ReminderCopySet = {
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
