import type { Catalogue } from "../../app/domain/i18n";
import type { TemplateId } from "../../app/domain/presets";
import type { Tone } from "../../app/domain/strategies";
import type { LabelKey } from "./en";
import type { FirstContactRule, Line, ReminderCopySet, TemplateCopy, ToneFrame } from "./types";

/**
 * Spanish (Spain, formal "usted"): a line-for-line translation of emails/copy/en.ts, with exactly
 * its lines, alternatives and arguments (catalogueProblems, emails/copy/copy.test.ts). The values
 * arrive already written in Spanish: {daysOverdue} "12 días", {invoiceCount} "3 facturas",
 * {amount} "1.234,56 €", {dueDate} "5 de marzo de 2027".
 */

const TONE_FRAME: Record<Tone, ToneFrame> = {
  1: {
    greeting: ["Hola, {contactName}:", "Hola, {receiverName}:", "Hola:"],
    signOff: "Muchas gracias y un cordial saludo,",
  },
  2: {
    greeting: ["Buenos días, {contactName}:", "Buenos días, {receiverName}:", "Buenos días:"],
    signOff: "Saludos cordiales,",
  },
  3: { greeting: ["{contactName}:", "{receiverName}:", "Buenos días:"], signOff: "Atentamente," },
};

const REMINDER_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: {
    1: {
      subject: [
        "Amable recordatorio: factura {invoiceNumber} de {amount}",
        "Amable recordatorio: {invoiceCount}, {amount}",
        "Amable recordatorio: pago de {amount}",
      ],
      heading: "Un amable recordatorio",
      paragraphs: [
        [
          "Le recordamos amablemente el pago de {amount}, con vencimiento el {dueDate}, que acumula ya {daysOverdue} de retraso.",
          "Le recordamos amablemente el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le recordamos amablemente el pago de {amount}, con vencimiento el {dueDate}.",
          "Le recordamos amablemente el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación.",
          "Le recordamos amablemente que tiene un pago pendiente de {amount}.",
        ],
        "Si ya se ha ocupado de ello, muchas gracias; por favor, no tenga en cuenta este mensaje.",
        "Si tiene alguna duda, basta con que responda a este correo.",
      ],
    },
    2: {
      subject: [
        "Recordatorio de pago: factura {invoiceNumber} de {amount}",
        "Recordatorio de pago: {invoiceCount}, {amount}",
        "Recordatorio de pago: {amount}",
      ],
      heading: "Recordatorio de pago",
      paragraphs: [
        [
          "Le recordamos que el pago de {amount}, con vencimiento el {dueDate}, acumula {daysOverdue} de retraso y aún no se ha recibido.",
          "Le recordamos que aún no se ha recibido el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación; la más antigua acumula {daysOverdue} de retraso.",
          "Le recordamos que aún no se ha recibido el pago de {amount}, con vencimiento el {dueDate}.",
          "Le recordamos que aún no se ha recibido el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación.",
          "Le recordamos que aún no se ha recibido un pago de {amount}.",
        ],
        "Le rogamos que efectúe el pago en cuanto le sea posible. Si ya lo ha pagado, no tenga en cuenta este mensaje.",
        "Si tiene alguna duda, responda a este correo.",
      ],
    },
    3: {
      subject: [
        "Pago pendiente: factura {invoiceNumber} de {amount}",
        "Pago pendiente: {invoiceCount}, {amount}",
        "Pago pendiente: {amount}",
      ],
      heading: "Pago pendiente",
      paragraphs: [
        [
          "El pago de {amount}, con vencimiento el {dueDate}, acumula {daysOverdue} de retraso y no se ha recibido.",
          "No se ha recibido el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación; la más antigua acumula {daysOverdue} de retraso.",
          "No se ha recibido el pago de {amount}, con vencimiento el {dueDate}.",
          "No se ha recibido el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación.",
          "Hay un pago pendiente de {amount} que no se ha recibido.",
        ],
        "Le rogamos que abone el importe total sin demora.",
        "Se enviarán nuevos recordatorios hasta que se reciba el pago.",
      ],
    },
  },

  "follow-up": {
    1: {
      subject: [
        "Seguimiento: factura {invoiceNumber} de {amount}",
        "Seguimiento: {invoiceCount}, {amount}",
        "Seguimiento del pago de {amount}",
      ],
      heading: "Le escribimos de nuevo",
      paragraphs: [
        [
          "Le escribimos de nuevo porque el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "Le escribimos de nuevo porque el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le escribimos de nuevo porque el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "Le escribimos de nuevo porque el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "Le escribimos de nuevo porque el pago de {amount} sigue pendiente.",
        ],
        "Puede que simplemente se le haya pasado. ¿Podría ocuparse de ello cuando tenga un momento? Si el pago ya está en curso, muchas gracias; por favor, no tenga en cuenta este mensaje.",
        "Si algo no está claro, basta con que responda a este correo.",
      ],
    },
    2: {
      subject: [
        "Seguimiento: la factura {invoiceNumber} ({amount}) sigue pendiente",
        "Seguimiento: las {invoiceCount} ({amount}) siguen pendientes",
        "Seguimiento: importe pendiente de {amount}",
      ],
      heading: "Pago aún pendiente",
      paragraphs: [
        [
          "Le reiteramos que el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "Le reiteramos que el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le reiteramos que el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "Le reiteramos que el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "Le reiteramos que el pago de {amount} sigue pendiente.",
        ],
        "Le rogamos que abone el importe total lo antes posible. Si ya lo ha pagado, no tenga en cuenta este mensaje.",
        "Si algo le impide realizar el pago, responda a este correo para que podamos encontrar una solución.",
      ],
    },
    3: {
      subject: [
        "Pendiente de pago: factura {invoiceNumber} de {amount}, pague ahora",
        "Pendiente de pago: {invoiceCount}, {amount}, pague ahora",
        "Pendiente de pago: {amount}, pague ahora",
      ],
      heading: "Pago aún pendiente",
      paragraphs: [
        [
          "El pago de {amount}, con vencimiento el {dueDate}, acumula {daysOverdue} de retraso y sigue pendiente pese a un recordatorio anterior.",
          "El pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente pese a un recordatorio anterior; la más antigua acumula {daysOverdue} de retraso.",
          "El pago de {amount}, con vencimiento el {dueDate}, sigue pendiente pese a un recordatorio anterior.",
          "El pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente pese a un recordatorio anterior.",
          "El pago de {amount} sigue pendiente pese a un recordatorio anterior.",
        ],
        "Abone ahora el importe total.",
        "Se enviarán nuevos recordatorios hasta que se reciba el pago.",
      ],
    },
  },

  "second-follow-up": {
    1: {
      subject: [
        "Nuevo recordatorio: factura {invoiceNumber} de {amount}",
        "Nuevo recordatorio: {invoiceCount}, {amount}",
        "Nuevo recordatorio: importe pendiente de {amount}",
      ],
      heading: "Nuevo recordatorio",
      paragraphs: [
        [
          "Le recordamos una vez más que el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "Le recordamos una vez más que el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le recordamos una vez más que el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "Le recordamos una vez más que el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "Le recordamos una vez más que el pago de {amount} sigue pendiente.",
        ],
        "Le rogamos que realice el pago en breve. Si surge algún problema, basta con que responda a este correo para que podamos resolverlo juntos.",
        "Si ya ha pagado, muchas gracias; por favor, no tenga en cuenta este mensaje.",
      ],
    },
    2: {
      subject: [
        "Acción requerida: la factura {invoiceNumber} ({amount}) sigue sin pagar",
        "Acción requerida: las {invoiceCount} ({amount}) siguen sin pagar",
        "Acción requerida: importe de {amount} sin pagar",
      ],
      heading: "Acción requerida",
      paragraphs: [
        [
          "A pesar de los recordatorios anteriores, el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "A pesar de los recordatorios anteriores, el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "A pesar de los recordatorios anteriores, el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "A pesar de los recordatorios anteriores, el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "A pesar de los recordatorios anteriores, el pago de {amount} sigue pendiente.",
        ],
        "Le rogamos que abone ahora el importe total o que responda a este correo si hay algún problema con el pago.",
        "Si ya ha pagado, no tenga en cuenta este mensaje.",
      ],
    },
    3: {
      subject: [
        "Pago requerido: la factura {invoiceNumber} de {amount} está impagada",
        "Pago requerido: {invoiceCount} impagadas, {amount}",
        "Pago requerido: importe impagado de {amount}",
      ],
      heading: "Pago requerido",
      paragraphs: [
        [
          "A pesar de los recordatorios anteriores, el importe de {amount}, con vencimiento el {dueDate}, sigue impagado, con {daysOverdue} de retraso.",
          "A pesar de los recordatorios anteriores, el importe de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue impagado; la más antigua acumula {daysOverdue} de retraso.",
          "A pesar de los recordatorios anteriores, el importe de {amount}, con vencimiento el {dueDate}, sigue impagado.",
          "A pesar de los recordatorios anteriores, el importe de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue impagado.",
          "A pesar de los recordatorios anteriores, el importe de {amount} sigue impagado.",
        ],
        "Abone hoy el importe total.",
        "Los recordatorios continuarán hasta que se reciba el pago.",
      ],
    },
  },

  // The final notice repeats until the schedule is cancelled, so it never says "last e-mail".
  "final-notice": {
    1: {
      subject: [
        "Último aviso: factura {invoiceNumber} de {amount}",
        "Último aviso: {invoiceCount}, {amount}",
        "Último aviso: pago de {amount}",
      ],
      heading: "Último aviso",
      paragraphs: [
        [
          "Le enviamos este último aviso porque el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "Le enviamos este último aviso porque el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le enviamos este último aviso porque el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "Le enviamos este último aviso porque el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "Le enviamos este último aviso porque el pago de {amount} sigue pendiente.",
        ],
        "Le rogamos que abone el importe total en cuanto pueda. Si algo le impide realizar el pago, responda a este correo para que podamos hablarlo.",
        "Si ya ha pagado, muchas gracias; por favor, no tenga en cuenta este aviso.",
      ],
    },
    2: {
      subject: [
        "Último aviso: la factura {invoiceNumber} ({amount}) sigue sin pagar",
        "Último aviso: las {invoiceCount} ({amount}) siguen sin pagar",
        "Último aviso: importe de {amount} sin pagar",
      ],
      heading: "Último aviso",
      paragraphs: [
        [
          "Este es un último aviso: el pago de {amount}, con vencimiento el {dueDate}, acumula {daysOverdue} de retraso y sigue pendiente tras varios recordatorios.",
          "Este es un último aviso: el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente tras varios recordatorios; la más antigua acumula {daysOverdue} de retraso.",
          "Este es un último aviso: el pago de {amount}, con vencimiento el {dueDate}, sigue pendiente tras varios recordatorios.",
          "Este es un último aviso: el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente tras varios recordatorios.",
          "Este es un último aviso: el pago de {amount} sigue pendiente tras varios recordatorios.",
        ],
        "Le rogamos que abone ahora el importe total. Si no puede pagarlo en su totalidad, responda hoy mismo a este correo para tratarlo.",
        "Si ya ha pagado, no tenga en cuenta este aviso.",
      ],
    },
    3: {
      subject: [
        "Último aviso: pague hoy la factura {invoiceNumber} ({amount})",
        "Último aviso: pague hoy las {invoiceCount} ({amount})",
        "Último aviso: pague hoy {amount}",
      ],
      heading: "Último aviso: pago requerido hoy",
      paragraphs: [
        [
          "El pago de {amount}, con vencimiento el {dueDate}, acumula {daysOverdue} de retraso y sigue impagado tras varios recordatorios.",
          "El pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue impagado tras varios recordatorios; la más antigua acumula {daysOverdue} de retraso.",
          "El pago de {amount}, con vencimiento el {dueDate}, sigue impagado tras varios recordatorios.",
          "El pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue impagado tras varios recordatorios.",
          "El pago de {amount} sigue impagado tras varios recordatorios.",
        ],
        "Esta es una última solicitud. Abone hoy el importe total.",
        "Los recordatorios continuarán hasta que se reciba el pago. Si ya ha pagado, no tenga en cuenta este aviso.",
      ],
    },
  },

  // Sent again and again at a daily or weekly frequency, so it says reminders will repeat; sent once
  // ('now'), resolveCopy leaves those sentences out.
  single: {
    1: {
      subject: [
        "Recordatorio: factura {invoiceNumber} de {amount}",
        "Recordatorio: {invoiceCount}, saldo pendiente de {amount}",
        "Recordatorio: saldo pendiente de {amount}",
      ],
      heading: "Un amable recordatorio",
      paragraphs: [
        [
          "Le recordamos amablemente que el saldo de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "Le recordamos amablemente que el saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le recordamos amablemente que el saldo de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "Le recordamos amablemente que el saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "Le recordamos amablemente que tiene un saldo pendiente de {amount}.",
        ],
        "Cuando tenga un momento, le rogamos que realice el pago. Si ya ha pagado, muchas gracias; por favor, no tenga en cuenta este mensaje.",
        "Si tiene alguna duda, basta con que responda a este correo.",
      ],
    },
    2: {
      subject: [
        "Recordatorio: la factura {invoiceNumber} ({amount}) está pendiente",
        "Recordatorio: las {invoiceCount} ({amount}) están pendientes",
        "Recordatorio: saldo pendiente de {amount}",
      ],
      heading: "Saldo pendiente",
      paragraphs: [
        [
          "Le recordamos que el saldo de {amount}, con vencimiento el {dueDate}, sigue pendiente y acumula ya {daysOverdue} de retraso.",
          "Le recordamos que el saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente; la más antigua acumula ya {daysOverdue} de retraso.",
          "Le recordamos que el saldo de {amount}, con vencimiento el {dueDate}, sigue pendiente.",
          "Le recordamos que el saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue pendiente.",
          "Le recordamos que tiene un saldo pendiente de {amount}.",
        ],
        "Le rogamos que abone el importe total lo antes posible. Si ya ha pagado, no tenga en cuenta este mensaje.",
        "Se enviarán recordatorios periódicamente hasta que se abone el saldo.",
      ],
    },
    3: {
      subject: [
        "Pago requerido: factura {invoiceNumber} de {amount}",
        "Pago requerido: {invoiceCount}, saldo de {amount}",
        "Pago requerido: saldo de {amount}",
      ],
      heading: "Saldo pendiente: pago requerido",
      paragraphs: [
        [
          "El saldo de {amount}, con vencimiento el {dueDate}, acumula {daysOverdue} de retraso y sigue impagado.",
          "El saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue impagado; la más antigua acumula {daysOverdue} de retraso.",
          "El saldo de {amount}, con vencimiento el {dueDate}, sigue impagado.",
          "El saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación sigue impagado.",
          "Hay un saldo de {amount} que sigue impagado.",
        ],
        "Abone ahora el importe total.",
        "Se enviarán nuevos recordatorios hasta que se abone el saldo.",
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
      "Próximo pago: factura {invoiceNumber} de {amount}",
      "Próximo pago: {amount}, con vencimiento el {dueDate}",
      "Próximo pago: {invoiceCount}, {amount}",
      "Próximo pago de {amount}",
    ],
    heading: "Un amable aviso",
    paragraphs: [
      [
        "Le recordamos amablemente que el pago de {amount} vence el {dueDate}.",
        "Le recordamos amablemente que el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación vence en las fechas indicadas.",
        "Le recordamos amablemente que un pago de {amount} está próximo a vencer.",
      ],
      "Si ya se ha ocupado de ello, muchas gracias; por favor, no tenga en cuenta este mensaje.",
      "Si tiene alguna duda, basta con que responda a este correo.",
    ],
  },
  2: {
    subject: [
      "Próximo vencimiento: factura {invoiceNumber} de {amount}",
      "Próximo vencimiento: {amount} el {dueDate}",
      "Próximos vencimientos: {invoiceCount}, {amount}",
      "Próximo vencimiento: {amount}",
    ],
    heading: "Próximo vencimiento",
    paragraphs: [
      [
        "Le recordamos que el pago de {amount} vence el {dueDate}.",
        "Le recordamos que el pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación vence en las fechas indicadas.",
        "Le recordamos que un pago de {amount} está próximo a vencer.",
      ],
      "Le rogamos que realice el pago a más tardar en la fecha de vencimiento. Si ya lo ha pagado, no tenga en cuenta este mensaje.",
      "Si tiene alguna duda, responda a este correo.",
    ],
  },
  3: {
    subject: [
      "Pago con vencimiento el {dueDate}: factura {invoiceNumber}, {amount}",
      "Pago con vencimiento el {dueDate}: {amount}",
      "Pagos por vencer: {invoiceCount}, {amount}",
      "Pago próximo a vencer: {amount}",
    ],
    heading: "Vencimiento de pago",
    paragraphs: [
      [
        "El pago de {amount} vence el {dueDate}.",
        "El pago de {amount} correspondiente a las {invoiceCount} que figuran a continuación vence en las fechas indicadas.",
        "Un pago de {amount} está próximo a vencer.",
      ],
      "Abone el importe total a más tardar en la fecha de vencimiento.",
      "Se enviarán nuevos recordatorios hasta que se reciba el pago.",
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
        "Recordatorio: factura {invoiceNumber} de {amount}, con vencimiento el {dueDate}",
        "Recordatorio: {amount}, con vencimiento el {dueDate}",
        "Recordatorio: {invoiceCount}, saldo de {amount} próximo a vencer",
        "Recordatorio: saldo de {amount} próximo a vencer",
      ],
      heading: "Un amable recordatorio",
      paragraphs: [
        [
          "Le recordamos amablemente que el saldo de {amount} vence el {dueDate}.",
          "Le recordamos amablemente que el saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación vence en las fechas indicadas.",
          "Le recordamos amablemente que un saldo de {amount} está próximo a vencer.",
        ],
        "Cuando tenga un momento, le rogamos que realice el pago a más tardar en la fecha de vencimiento. Si ya ha pagado, muchas gracias; por favor, no tenga en cuenta este mensaje.",
        "Si tiene alguna duda, basta con que responda a este correo.",
      ],
    },
    2: {
      subject: [
        "Recordatorio: la factura {invoiceNumber} ({amount}) vence el {dueDate}",
        "Recordatorio: {amount} con vencimiento el {dueDate}",
        "Recordatorio: {invoiceCount} ({amount}) próximas a vencer",
        "Recordatorio: saldo de {amount} próximo a vencer",
      ],
      heading: "Saldo próximo a vencer",
      paragraphs: [
        [
          "Le recordamos que el saldo de {amount} vence el {dueDate}.",
          "Le recordamos que el saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación vence en las fechas indicadas.",
          "Le recordamos que un saldo de {amount} está próximo a vencer.",
        ],
        "Le rogamos que realice el pago a más tardar en la fecha de vencimiento. Si ya ha pagado, no tenga en cuenta este mensaje.",
        "Se enviarán recordatorios periódicamente hasta que se abone el saldo.",
      ],
    },
    3: {
      subject: [
        "Pago requerido a más tardar el {dueDate}: factura {invoiceNumber}, {amount}",
        "Pago requerido a más tardar el {dueDate}: {amount}",
        "Pago requerido: {invoiceCount}, saldo de {amount} próximo a vencer",
        "Pago requerido: saldo de {amount} próximo a vencer",
      ],
      heading: "Saldo próximo a vencer: pago requerido",
      paragraphs: [
        [
          "El saldo de {amount} vence el {dueDate}.",
          "El saldo de {amount} correspondiente a las {invoiceCount} que figuran a continuación vence en las fechas indicadas.",
          "Un saldo de {amount} está próximo a vencer.",
        ],
        "Abone el importe total a más tardar en la fecha de vencimiento.",
        "Se enviarán nuevos recordatorios hasta que se abone el saldo.",
      ],
    },
  },
};

/** Footer of every reminder: who sent it and how to reach them. */
const FOOTER_COPY: Line = [
  "Enviado por {senderName}. Para contactar con el remitente, responda a este correo.",
  "Para contactar con el remitente, responda a este correo.",
];

/**
 * The opt-out line under the footer of every reminder: the question, then a
 * link to the signed opt-out page with `link` as its text.
 */
const OPT_OUT_COPY = { question: "¿No desea recibir estos recordatorios?", link: "Desactívelos aquí" } as const;

/**
 * Paying from the reminder: the 'Pay now' button to the sender's payment page (only when
 * they set one), and the line with the "I've paid" link (every reminder), which tells the sender
 * and pauses the reminders. A one-time reminder's line (`paidQuestionOnce`) speaks of no reminders to
 * pause: none follows. The same words in every tone.
 */
const PAY_COPY = {
  button: "Pagar ahora",
  paidQuestion: [
    "¿Ya ha pagado? Comuníqueselo a {senderName} y los recordatorios se pausarán:",
    "¿Ya ha pagado? Comuníqueselo al remitente y los recordatorios se pausarán:",
  ] as Line,
  paidQuestionOnce: [
    "¿Ya ha pagado? Comuníqueselo a {senderName}:",
    "¿Ya ha pagado? Comuníqueselo al remitente:",
  ] as Line,
  paidLink: "Ya he pagado",
} as const;

/**
 * The sentences that announce more reminders ("Se enviarán nuevos recordatorios…", "Los
 * recordatorios continuarán…", "Se enviarán recordatorios periódicamente…"): a one-time reminder
 * leaves them out, since none follows.
 */
const REPEAT_NOTICE = /(?:Se enviarán (?:nuevos )?recordatorios|Los recordatorios continuarán)[^.]*\.\s*/g;

/**
 * A debtor's first reminder may be a firmer one (an invoice that joins a cadence late gets the step
 * its age calls for, decisions/048): it must not speak of reminders the debtor never got. These
 * rewrite the firmer templates' mentions of earlier contact, keeping their tone.
 */
const FIRST_CONTACT: readonly FirstContactRule[] = [
  [/^Seguimiento: /, "Recordatorio: "],
  [/^Seguimiento del pago de /, "Recordatorio: pago de "],
  [/^Le escribimos de nuevo$/, "Recordatorio de pago"],
  [/^Le escribimos de nuevo porque/, "Le escribimos para recordarle que"],
  [/^Le reiteramos que el pago/, "Le recordamos que el pago"],
  [/ pese a un recordatorio anterior/g, ""],
  [/^Nuevo recordatorio: /, "Recordatorio: "],
  [/^Nuevo recordatorio$/, "Recordatorio de pago"],
  [/^Le recordamos una vez más que/, "Le recordamos que"],
  [/^A pesar de los recordatorios anteriores, (\S)/, (_match, first) => first.toUpperCase()],
  [/ tras varios recordatorios/g, ""],
];

/** The fixed texts of a reminder (emails/reminder.tsx) and its statement's labels: ICU messages. */
const LABELS = {
  invoiceHeading: "Factura",
  dueDateHeading: "Vencimiento",
  balanceHeading: "Saldo",
  statusHeading: "Estado",
  totalDue: "Total a pagar",
  totalDueIn: "Total a pagar en {currency}",
  moreInvoices: "y {count, plural, one {# factura más, incluida} other {# facturas más, incluidas}} en el total",
  invoiceDue: "Factura con vencimiento el {date}",
  theInvoiceDue: "la factura con vencimiento el {date}",
  apartLine: "{invoice} ({balance}, vencimiento: {date})",
  notChased:
    "Fuera de este recordatorio, según lo acordado: {invoices}. Su importe no está incluido en el total anterior.",
  claimedPaid:
    "Nos ha indicado que ya ha pagado {invoices}. {senderName} {count, plural, one {la está comprobando, por lo que no se incluye} other {las está comprobando, por lo que no se incluyen}} en el total anterior.",
  payByBank: "Pagar por transferencia bancaria",
  payByBankIn: "Pagar por transferencia bancaria ({currency})",
  reference: "Concepto",
  viewStatement: "Ver su extracto / responder",
  contact: "Contacto:",
  days: "{count, plural, one {# día} other {# días}}",
  invoices: "{count, plural, one {# factura} other {# facturas}}",
  dueToday: "vence hoy",
  daysOverdue: "{count, plural, one {# día} other {# días}} de retraso",
  dueIn: "vence en {count, plural, one {# día} other {# días}}",
  sentBy: "Enviado por Dunly.",
} as const;

export const ES: ReminderCopySet = {
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
