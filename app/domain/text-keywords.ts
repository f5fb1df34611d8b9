/**
 * What a debtor's text message asks for (decisions/068), by the carriers' standard keywords (the
 * CTIA's and Twilio's Advanced Opt-Out lists): the whole message, trimmed, in any case, one word.
 * "stop" ends every text to the number at once; "start" lets texts resume; "help" is answered by the
 * Messaging Service itself. Anything else is a reply, stored like an e-mailed one.
 */
export type TextKeyword = "stop" | "start" | "help";

const KEYWORDS: Record<string, TextKeyword> = {
  STOP: "stop",
  STOPALL: "stop",
  UNSUBSCRIBE: "stop",
  CANCEL: "stop",
  END: "stop",
  QUIT: "stop",
  REVOKE: "stop",
  OPTOUT: "stop",
  "OPT-OUT": "stop",
  START: "start",
  UNSTOP: "start",
  YES: "start",
  HELP: "help",
  INFO: "help",
};

/** Twilio's own verdict (`OptOutType` on an inbound message with Advanced Opt-Out) wins over the words. */
export function textKeyword(body: string, optOutType?: string | null): TextKeyword | null {
  const told = optOutType?.trim().toUpperCase();
  if (told === "STOP") return "stop";
  if (told === "START") return "start";
  if (told === "HELP") return "help";
  const word = body
    .trim()
    .replace(/[.!?]+$/, "")
    .toUpperCase();
  return Object.hasOwn(KEYWORDS, word) ? (KEYWORDS[word] ?? null) : null;
}
