/**
 * The pure half of inbound replies (docs/decisions/020-inbound-replies.md): the reply address's format, what counts as automatic mail or a bounce, and the text we
 * keep of a reply. No I/O: app/replies/receive.server.ts verifies, stores and holds.
 */

/** The largest raw message accepted, in bytes: anything larger is rejected before it is parsed. */
export const MAX_REPLY_BYTES = 1024 * 1024;
/** The largest text kept of a reply, in bytes of UTF-8. */
export const MAX_REPLY_TEXT_BYTES = 64 * 1024;
/** Replies stored per debtor in any 24 hours; the next ones are rejected. */
export const REPLIES_PER_DEBTOR_PER_DAY = 20;
/** Hex digits of the reply signature kept in the address: 104 bits. */
export const REPLY_SIGNATURE_HEX = 26;

/**
 * A reply address's local part: `r-<32-hex opt_out_key>-<26-hex signature>`. Lowercase hex only,
 * since mail systems may change the case of a local part; nothing in it is an id.
 */
const LOCAL_PART_RE = /^r-([0-9a-f]{32})-([0-9a-f]{26})$/;

/** A key that can go in a reply address (the keys we make: 32 lowercase hex digits). */
export function isReplyKey(key: string): boolean {
  return /^[0-9a-f]{32}$/.test(key);
}

/** The reply address of a debtor's key and signature on the inbound domain. */
export function formatReplyAddress(key: string, signature: string, domain: string): string {
  return `r-${key}-${signature}@${domain.toLowerCase()}`;
}

/**
 * The key and signature of an address on `domain`, or null for anything else: another domain, a
 * malformed local part, a "+tag" or quotes. Case-insensitive; at most 254 characters.
 */
export function parseReplyAddress(address: string, domain: string): { key: string; signature: string } | null {
  if (typeof address !== "string" || address.length > 254) return null;
  const at = address.lastIndexOf("@");
  if (at < 0) return null;
  const local = address.slice(0, at).trim().toLowerCase();
  const host = address
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (host !== domain.toLowerCase()) return null;
  const m = LOCAL_PART_RE.exec(local);
  if (!m?.[1] || !m[2]) return null;
  return { key: m[1], signature: m[2] };
}

export interface MailHeader {
  key: string;
  value: string;
}

function header(headers: readonly MailHeader[], name: string): string | null {
  const found = headers.find((h) => h.key.toLowerCase() === name);
  return found ? found.value.trim() : null;
}

/**
 * Mail that a machine wrote, not the debtor (RFC 3834 and the headers Exchange, Gmail and list
 * servers use): Auto-Submitted other than "no", X-Autoreply, X-Autorespond, X-Auto-Response-Suppress,
 * Precedence bulk, junk, list or auto_reply, List-Id, or a From of mailer-daemon or postmaster.
 * Recorded on the timeline only: it never holds reminders and is never answered.
 */
export function isAutomaticMail(headers: readonly MailHeader[], from: string | null | undefined): boolean {
  const autoSubmitted = header(headers, "auto-submitted");
  if (autoSubmitted && autoSubmitted.toLowerCase() !== "no") return true;
  if (header(headers, "x-autoreply") !== null || header(headers, "x-autorespond") !== null) return true;
  if (header(headers, "x-auto-response-suppress") !== null) return true;
  if (header(headers, "list-id") !== null) return true;
  const precedence = header(headers, "precedence")?.toLowerCase();
  if (precedence && ["bulk", "junk", "list", "auto_reply", "auto-reply"].includes(precedence)) return true;
  const local = (from ?? "").toLowerCase().split("@")[0] ?? "";
  return local === "mailer-daemon" || local === "postmaster";
}

/** A delivery-status notification (RFC 3464): multipart/report; report-type=delivery-status. */
export function isDeliveryReport(headers: readonly MailHeader[]): boolean {
  const type = header(headers, "content-type")?.toLowerCase() ?? "";
  return type.startsWith("multipart/report") && /report-type\s*=\s*"?delivery-status"?/.test(type);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * Text of an HTML-only reply: never rendered, only read. Scripts, styles and comments go with their
 * content; block ends become line breaks; every other tag is dropped; a few entities are decoded.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote)\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === "#") {
        const n = code[1] === "x" || code[1] === "X" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : "";
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** At most `max` bytes of UTF-8, cut at a character boundary. */
export function clipUtf8(text: string, max: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return text;
  return new TextDecoder().decode(bytes.slice(0, max)).replace(/\uFFFD$/, "");
}

/** The text we keep of a reply: its text part, else its HTML as text; at most 64 KB; line ends normalized. */
export function replyText(email: { text?: string | null; html?: string | null }): string {
  const raw = email.text?.trim() ? email.text : email.html ? htmlToText(email.html) : "";
  return clipUtf8(raw.replace(/\r\n?/g, "\n").trim(), MAX_REPLY_TEXT_BYTES);
}

/** One line, at most `max` characters: for a subject or an address shown in a list or a header. */
export function oneLineOf(value: string | null | undefined, max = 200): string {
  return Array.from(value ?? "", (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x20 || code === 0x7f ? " " : ch;
  })
    .join("")
    .replace(/\s{2,}/g, " ")
    .trim()
    .slice(0, max);
}

/** The longest message the opt-out page's "contact me another way" takes (it is stored as a reply). */
export const CONTACT_MESSAGE_MAX = 2000;
