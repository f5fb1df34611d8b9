/**
 * A reminder's text in the user's own words: a subject and a body the user edits per step (template
 * and tone) and language. The body is plain text with light formatting, never HTML: paragraphs
 * (an empty line between them), line breaks, **bold**, [a link](https://…), and placeholders in
 * braces. The e-mail templates render the parsed blocks as escaped React text, so nothing typed can
 * become markup. The statement and the legal footer are not the user's to remove: the statement
 * goes where `{statement}` stands, else after the first paragraph; the footer is outside the body.
 * Pure and client-safe: the editor checks as the user types, the server on save and again on send.
 */

/** Placeholders that stand for words inside a sentence (and in the subject). */
export const INLINE_PLACEHOLDERS = ["debtorName", "contactName", "total", "oldestDueDate", "daysOverdue"] as const;
/** Placeholders that stand for a whole part of the e-mail, on a line of their own. */
export const BLOCK_PLACEHOLDERS = ["statement", "payButton", "bankDetails", "portalLink", "signature"] as const;
export type InlinePlaceholder = (typeof INLINE_PLACEHOLDERS)[number];
export type BlockPlaceholder = (typeof BLOCK_PLACEHOLDERS)[number];
export type TemplatePlaceholder = InlinePlaceholder | BlockPlaceholder;

/** What the picker says of each placeholder. */
export const PLACEHOLDER_HELP: Record<TemplatePlaceholder, string> = {
  debtorName: "The debtor's name",
  contactName: "The contact person's name (the debtor's name when there is none)",
  total: "The total still owed, per currency",
  oldestDueDate: "The due date of the oldest open invoice",
  daysOverdue: "How late the oldest invoice is, e.g. 12 days (0 days before its due date)",
  statement: "The statement: every open invoice and the total (always included)",
  payButton: "The Pay now button, when you take payments online",
  bankDetails: "Your bank details and the reference to quote, when you have set them",
  portalLink: "The link to the debtor's page, where they can pay, promise, dispute or reply",
  signature: "Your sign-off and signature",
};

export const SUBJECT_MAX = 200;
export const BODY_MAX = 5000;

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "bold"; children: Inline[] }
  | { kind: "link"; href: string; children: Inline[] }
  | { kind: "placeholder"; name: InlinePlaceholder };

export type Block = { kind: "paragraph"; lines: Inline[][] } | { kind: "part"; name: BlockPlaceholder };

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

const isInline = (name: string): name is InlinePlaceholder => (INLINE_PLACEHOLDERS as readonly string[]).includes(name);
const isBlock = (name: string): name is BlockPlaceholder => (BLOCK_PLACEHOLDERS as readonly string[]).includes(name);

const PLACEHOLDER = /\{\s*([A-Za-z][A-Za-z0-9_]{0,40})\s*\}/g;

function unknownPlaceholder(name: string): string {
  return `{${name}} is not a placeholder. Use one of: ${[...INLINE_PLACEHOLDERS, ...BLOCK_PLACEHOLDERS].map((p) => `{${p}}`).join(", ")}.`;
}

/** Text with placeholders: the words between them and the placeholders, or what is wrong. */
function textWithPlaceholders(text: string, errors: Set<string>, where: "body" | "subject"): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? "";
    if (match.index > last) out.push({ kind: "text", text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    if (isInline(name)) out.push({ kind: "placeholder", name });
    else if (isBlock(name))
      errors.add(
        where === "subject"
          ? `{${name}} cannot be in the subject.`
          : `Put {${name}} on a line of its own: it is a whole part of the e-mail.`,
      );
    else errors.add(unknownPlaceholder(name));
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** Links a debtor may follow: web pages and e-mail addresses, nothing that could run. */
export function safeLinkTarget(href: string): string | null {
  const target = href.trim();
  if (/^mailto:[^\s<>"]+@[^\s<>"]+$/i.test(target)) return target;
  try {
    const url = new URL(target);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

const LINK = /\[([^\]\n]{1,200})\]\(([^)\s]{1,2000})\)/g;

/** One line's words: links, then bold, then placeholders. */
function inlineLine(line: string, errors: Set<string>): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of line.matchAll(LINK)) {
    if (match.index > last) out.push(...bolded(line.slice(last, match.index), errors));
    last = match.index + match[0].length;
    const href = safeLinkTarget(match[2] ?? "");
    if (!href) {
      errors.add(`The link "${match[2]}" must start with https:// (or be a mailto: address).`);
      continue;
    }
    out.push({ kind: "link", href, children: bolded(match[1] ?? "", errors) });
  }
  if (last < line.length) out.push(...bolded(line.slice(last), errors));
  return out;
}

function bolded(text: string, errors: Set<string>): Inline[] {
  const out: Inline[] = [];
  const parts = text.split("**");
  parts.forEach((part, i) => {
    if (part === "") return;
    // An odd index is between two "**": bold. A "**" left open is written as it was typed.
    const closed = i % 2 === 1 && i < parts.length - 1;
    if (closed) out.push({ kind: "bold", children: textWithPlaceholders(part, errors, "body") });
    else out.push(...textWithPlaceholders(i % 2 === 1 ? `**${part}` : part, errors, "body"));
  });
  return out;
}

/** A subject: one line, placeholders for words only. */
export function parseSubject(subject: string): Parsed<Inline[]> {
  const errors = new Set<string>();
  if (/[\r\n]/.test(subject)) errors.add("The subject must be one line.");
  const text = subject.trim();
  if (text === "") errors.add("Write a subject.");
  else if (text.length > SUBJECT_MAX) errors.add(`The subject can be at most ${SUBJECT_MAX} characters.`);
  // Invisible and control characters never reach a header.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/.test(text))
    errors.add("The subject has characters that cannot be sent; retype it.");
  const value = textWithPlaceholders(text, errors, "subject");
  return errors.size > 0 ? { ok: false, errors: [...errors] } : { ok: true, value };
}

/** A body: its paragraphs and parts, or everything wrong with it. */
export function parseBody(body: string): Parsed<Block[]> {
  const errors = new Set<string>();
  const text = body.replace(/\r\n?/g, "\n");
  if (text.trim() === "") errors.add("Write the e-mail's text.");
  if (text.length > BODY_MAX) errors.add(`The text can be at most ${BODY_MAX.toLocaleString("en-US")} characters.`);
  if (/<\/?[a-z!][^>]*>/i.test(text))
    errors.add("HTML is not sent: write plain text, with **bold** and [links](https://…).");
  const blocks: Block[] = [];
  let lines: Inline[][] = [];
  const seen = new Set<BlockPlaceholder>();
  const endParagraph = () => {
    if (lines.length > 0) blocks.push({ kind: "paragraph", lines });
    lines = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const alone = /^\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}$/.exec(line)?.[1];
    if (line === "") endParagraph();
    else if (alone && isBlock(alone)) {
      endParagraph();
      if (seen.has(alone)) errors.add(`{${alone}} can appear only once.`);
      seen.add(alone);
      blocks.push({ kind: "part", name: alone });
    } else lines.push(inlineLine(line, errors));
  }
  endParagraph();
  return errors.size > 0 ? { ok: false, errors: [...errors] } : { ok: true, value: blocks };
}

/**
 * The blocks as sent: the statement where `{statement}` stands, else after the first paragraph
 * (it cannot be left out).
 */
export function withStatement(blocks: readonly Block[]): Block[] {
  if (blocks.some((b) => b.kind === "part" && b.name === "statement")) return [...blocks];
  const first = blocks.findIndex((b) => b.kind === "paragraph");
  const at = first === -1 ? 0 : first + 1;
  return [...blocks.slice(0, at), { kind: "part", name: "statement" }, ...blocks.slice(at)];
}

/** The values of the inline placeholders for one reminder, already formatted. */
export type PlaceholderValues = Record<InlinePlaceholder, string>;

/** Inline content as plain text (a subject, the preview line). */
export function inlineText(inline: readonly Inline[], values: PlaceholderValues): string {
  return inline
    .map((part) => {
      if (part.kind === "text") return part.text;
      if (part.kind === "placeholder") return values[part.name];
      return inlineText(part.children, values);
    })
    .join("");
}

/** A user's text for one step and language, as stored. */
export interface StepText {
  subject: string;
  body: string;
}

/** Both parts checked: the field errors of each, or both parsed. */
export function parseStepText(
  text: StepText,
): { ok: true; subject: Inline[]; body: Block[] } | { ok: false; errors: { subject?: string[]; body?: string[] } } {
  const subject = parseSubject(text.subject);
  const body = parseBody(text.body);
  if (subject.ok && body.ok) return { ok: true, subject: subject.value, body: body.value };
  return {
    ok: false,
    errors: { ...(subject.ok ? {} : { subject: subject.errors }), ...(body.ok ? {} : { body: body.errors }) },
  };
}
