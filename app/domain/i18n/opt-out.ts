import type { Catalogues } from "../i18n";

/**
 * The opt-out page /u/… (app/routes/unsubscribe.tsx): stopping every reminder, or "contact me
 * another way", and that form's refusals. English is the source.
 */
const en = {
  "optOut.title": "Stop reminders",
  "optOut.doneTitle": "Reminders stopped",
  "optOut.done": "You will not get any more reminders from {sender} at this address.",
  "optOut.question": "Stop payment reminders from {sender} to {address}?",
  "optOut.explanation": "Press the button and Dunly sends no more reminders from this sender to this address.",
  "optOut.button": "Stop reminders",
  "optOut.contact.heading": "Or: contact me another way",
  "optOut.contact.intro":
    "Rather talk than get e-mails? Tell {sender} how to reach you. Reminders wait until they have answered.",
  "optOut.contact.label": "Your message",
  "optOut.contact.submit": "Send and pause reminders",
  "optOut.contact.thanks": "Thank you. {sender} has your message; reminders wait until they have answered it.",
  "optOut.contact.empty": "Please write how the sender can reach you.",
  "optOut.contact.long": "Please keep the message to {max, plural, one {# character} other {# characters}}.",
  "optOut.contact.cap": "You have written many times today. Please try again tomorrow.",
  "optOut.explanationCopies":
    "Press the button and Dunly sends no more reminders from this sender to this address, nor the copies of them.",
  "optOut.buttonAll": "Stop all these reminders",
  "optOut.copies.heading": "Or: stop only the copies",
  "optOut.copies.intro":
    "These reminders are also sent as copies to the addresses below. Stop the copies to one of them; reminders to {address} continue.",
  "optOut.copies.button": "Stop only the copies",
  "optOut.copies.to": "to {address}",
  "optOut.copies.stopped": "No more copies go to {copy}. Reminders to {address} continue.",
} as const;

export type OptOutKey = keyof typeof en;

export const OPT_OUT_COPY: Catalogues<OptOutKey> = {
  en,
  de: {
    "optOut.title": "Erinnerungen abbestellen",
    "optOut.doneTitle": "Erinnerungen abbestellt",
    "optOut.done": "Sie erhalten an diese Adresse keine Erinnerungen mehr von {sender}.",
    "optOut.question": "Zahlungserinnerungen von {sender} an {address} abbestellen?",
    "optOut.explanation":
      "Drücken Sie die Schaltfläche, und Dunly sendet keine Erinnerungen dieses Absenders mehr an diese Adresse.",
    "optOut.button": "Erinnerungen abbestellen",
    "optOut.contact.heading": "Oder: Kontaktieren Sie mich anders",
    "optOut.contact.intro":
      "Lieber sprechen als E-Mails erhalten? Teilen Sie {sender} mit, wie Sie erreichbar sind. Die Erinnerungen ruhen, bis Sie eine Antwort erhalten haben.",
    "optOut.contact.label": "Ihre Nachricht",
    "optOut.contact.submit": "Senden und Erinnerungen pausieren",
    "optOut.contact.thanks":
      "Vielen Dank. {sender} hat Ihre Nachricht erhalten; die Erinnerungen ruhen, bis Sie eine Antwort erhalten haben.",
    "optOut.contact.empty": "Bitte schreiben Sie, wie der Absender Sie erreichen kann.",
    "optOut.contact.long": "Bitte beschränken Sie die Nachricht auf {max, plural, one {# Zeichen} other {# Zeichen}}.",
    "optOut.contact.cap": "Sie haben heute schon oft geschrieben. Bitte versuchen Sie es morgen erneut.",
    "optOut.explanationCopies":
      "Drücken Sie die Schaltfläche, und Dunly sendet keine Erinnerungen dieses Absenders mehr an diese Adresse, auch keine Kopien davon.",
    "optOut.buttonAll": "Alle diese Erinnerungen abbestellen",
    "optOut.copies.heading": "Oder: nur die Kopien abbestellen",
    "optOut.copies.intro":
      "Diese Erinnerungen gehen auch als Kopie an die Adressen unten. Bestellen Sie die Kopien an eine davon ab; die Erinnerungen an {address} gehen weiter.",
    "optOut.copies.button": "Nur die Kopien abbestellen",
    "optOut.copies.to": "an {address}",
    "optOut.copies.stopped": "An {copy} gehen keine Kopien mehr. Die Erinnerungen an {address} gehen weiter.",
  },
  fr: {
    "optOut.title": "Arrêter les rappels",
    "optOut.doneTitle": "Rappels arrêtés",
    "optOut.done": "Vous ne recevrez plus de rappels de {sender} à cette adresse.",
    "optOut.question": "Arrêter les rappels de paiement de {sender} à {address} ?",
    "optOut.explanation": "Appuyez sur le bouton et Dunly n’enverra plus de rappels de cet expéditeur à cette adresse.",
    "optOut.button": "Arrêter les rappels",
    "optOut.contact.heading": "Ou : me contacter autrement",
    "optOut.contact.intro":
      "Vous préférez en parler plutôt que recevoir des e-mails ? Indiquez à {sender} comment vous joindre. Les rappels attendent sa réponse.",
    "optOut.contact.label": "Votre message",
    "optOut.contact.submit": "Envoyer et suspendre les rappels",
    "optOut.contact.thanks": "Merci. {sender} a reçu votre message ; les rappels attendent sa réponse.",
    "optOut.contact.empty": "Veuillez indiquer comment l’expéditeur peut vous joindre.",
    "optOut.contact.long": "Veuillez limiter le message à {max, plural, one {# caractère} other {# caractères}}.",
    "optOut.contact.cap": "Vous avez écrit de nombreuses fois aujourd’hui. Veuillez réessayer demain.",
    "optOut.explanationCopies":
      "Appuyez sur le bouton et Dunly n’enverra plus de rappels de cet expéditeur à cette adresse, ni leurs copies.",
    "optOut.buttonAll": "Arrêter tous ces rappels",
    "optOut.copies.heading": "Ou : arrêter seulement les copies",
    "optOut.copies.intro":
      "Ces rappels sont aussi envoyés en copie aux adresses ci-dessous. Arrêtez les copies à l’une d’elles ; les rappels à {address} continuent.",
    "optOut.copies.button": "Arrêter seulement les copies",
    "optOut.copies.to": "à {address}",
    "optOut.copies.stopped": "Plus aucune copie n’est envoyée à {copy}. Les rappels à {address} continuent.",
  },
  es: {
    "optOut.title": "Dejar de recibir recordatorios",
    "optOut.doneTitle": "Recordatorios detenidos",
    "optOut.done": "No recibirá más recordatorios de {sender} en esta dirección.",
    "optOut.question": "¿Dejar de recibir recordatorios de pago de {sender} en {address}?",
    "optOut.explanation": "Pulse el botón y Dunly no enviará más recordatorios de este remitente a esta dirección.",
    "optOut.button": "Dejar de recibir recordatorios",
    "optOut.contact.heading": "O bien: contácteme de otra forma",
    "optOut.contact.intro":
      "¿Prefiere hablar en lugar de recibir correos? Indique a {sender} cómo puede localizarle. Los recordatorios esperarán a su respuesta.",
    "optOut.contact.label": "Su mensaje",
    "optOut.contact.submit": "Enviar y pausar los recordatorios",
    "optOut.contact.thanks": "Gracias. {sender} ha recibido su mensaje; los recordatorios esperarán a su respuesta.",
    "optOut.contact.empty": "Indique cómo puede localizarle el remitente.",
    "optOut.contact.long": "El mensaje puede tener como máximo {max, plural, one {# carácter} other {# caracteres}}.",
    "optOut.contact.cap": "Hoy ha escrito muchas veces. Inténtelo de nuevo mañana.",
    "optOut.explanationCopies":
      "Pulse el botón y Dunly no enviará más recordatorios de este remitente a esta dirección, ni sus copias.",
    "optOut.buttonAll": "Detener todos estos recordatorios",
    "optOut.copies.heading": "O bien: detener solo las copias",
    "optOut.copies.intro":
      "Estos recordatorios también se envían en copia a las direcciones de abajo. Detenga las copias a una de ellas; los recordatorios a {address} continúan.",
    "optOut.copies.button": "Detener solo las copias",
    "optOut.copies.to": "a {address}",
    "optOut.copies.stopped": "Ya no se envían copias a {copy}. Los recordatorios a {address} continúan.",
  },
  nl: {
    "optOut.title": "Herinneringen stoppen",
    "optOut.doneTitle": "Herinneringen gestopt",
    "optOut.done": "U krijgt op dit adres geen herinneringen meer van {sender}.",
    "optOut.question": "Betalingsherinneringen van {sender} aan {address} stoppen?",
    "optOut.explanation": "Druk op de knop en Dunly stuurt geen herinneringen van deze afzender meer naar dit adres.",
    "optOut.button": "Herinneringen stoppen",
    "optOut.contact.heading": "Of: neem op een andere manier contact met mij op",
    "optOut.contact.intro":
      "Liever praten dan e-mails krijgen? Laat {sender} weten hoe u bereikbaar bent. De herinneringen wachten tot u antwoord hebt gekregen.",
    "optOut.contact.label": "Uw bericht",
    "optOut.contact.submit": "Versturen en herinneringen pauzeren",
    "optOut.contact.thanks":
      "Dank u wel. {sender} heeft uw bericht; de herinneringen wachten tot u antwoord hebt gekregen.",
    "optOut.contact.empty": "Schrijf hoe de afzender u kan bereiken.",
    "optOut.contact.long": "Houd het bericht op maximaal {max, plural, one {# teken} other {# tekens}}.",
    "optOut.contact.cap": "U hebt vandaag al vaak geschreven. Probeer het morgen opnieuw.",
    "optOut.explanationCopies":
      "Druk op de knop en Dunly stuurt geen herinneringen van deze afzender meer naar dit adres, ook geen kopieën ervan.",
    "optOut.buttonAll": "Al deze herinneringen stoppen",
    "optOut.copies.heading": "Of: alleen de kopieën stoppen",
    "optOut.copies.intro":
      "Deze herinneringen gaan ook als kopie naar de adressen hieronder. Stop de kopieën naar een van die adressen; de herinneringen naar {address} gaan door.",
    "optOut.copies.button": "Alleen de kopieën stoppen",
    "optOut.copies.to": "naar {address}",
    "optOut.copies.stopped": "Er gaan geen kopieën meer naar {copy}. De herinneringen naar {address} gaan door.",
  },
};
