import { parseWithValibot } from "@conform-to/valibot";
import type { GenericSchema } from "valibot";

/**
 * Reading a form's limits from its markup: the constraints its inputs carry (required, min, max, maxlength, pattern,
 * type=email/number/date), a value that breaks each, and the message the form's valibot schema
 * gives it. Used by tests/integration/client-server-parity.test.ts (the pages' forms against the
 * server) and tests/support/dialog-form-limits.test.ts (the dialogs' forms against their schemas).
 */

const DAY = 86_400_000;

export type Fields = Record<string, string>;

export interface Constraint {
  field: string;
  kind: "required" | "min" | "max" | "maxlength" | "pattern" | "type";
  value: string;
  type: string;
}

export interface FormCase {
  name: string;
  /** The HTML the form is rendered in (a page, or its component). */
  html: () => Promise<string>;
  /** The hidden `intent` that picks the form out of the page. */
  intent: string;
  /** A submission the server accepts, which each case breaks in one field. */
  valid: () => Fields;
  /** Posts the fields as the form does; the status and each field's errors. */
  post: (fields: Fields) => Promise<{ status: number; errors: Record<string, string[]> }>;
  /** The schema the browser checks the form with (conform's onValidate), when it has one. */
  schema?: GenericSchema;
}

// --- reading the markup ---------------------------------------------------------------------

const attributesOf = (tag: string) => {
  const attrs = new Map<string, string>();
  for (const [, name, value] of tag.matchAll(/\s([a-zA-Z-:]+)(?:="([^"]*)")?/g)) {
    attrs.set(name!.toLowerCase(), (value ?? "").replace(/&amp;/g, "&").replace(/&quot;/g, '"'));
  }
  return attrs;
};

/** The `<form>` of the page whose hidden intent is `intent`. */
export function formMarkup(html: string, intent: string) {
  for (const [form] of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    if (form.includes(`name="intent" value="${intent}"`)) return form;
  }
  throw new Error(`no form with the intent ${intent} in the markup`);
}

/** Every constraint the form's named inputs, selects and text areas carry. */
export function constraintsOf(form: string): Constraint[] {
  const found: Constraint[] = [];
  for (const [tag, element] of form.matchAll(/<(input|select|textarea)\b[^>]*>/g)) {
    const attrs = attributesOf(tag);
    const field = attrs.get("name");
    const type = element === "input" ? (attrs.get("type") ?? "text") : element!;
    if (!field || type === "hidden" || type === "submit") continue;
    if (attrs.has("required")) found.push({ field, kind: "required", value: "", type });
    for (const kind of ["min", "max", "maxlength", "pattern"] as const) {
      const value = attrs.get(kind);
      if (value !== undefined) found.push({ field, kind, value, type });
    }
    if (type === "email" || type === "number" || type === "date")
      found.push({ field, kind: "type", value: type, type });
  }
  return found;
}

export const shiftDate = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** A value the browser would refuse for this constraint. */
export function violating(c: Constraint): string {
  switch (c.kind) {
    case "required":
      return "";
    case "min":
      return c.type === "date" ? shiftDate(c.value, -1) : String(Number(c.value) - 1);
    case "max":
      return c.type === "date" ? shiftDate(c.value, 1) : String(Number(c.value) + 1);
    case "maxlength":
      return "x".repeat(Number(c.value) + 1);
    case "pattern": {
      const re = new RegExp(`^(?:${c.value})$`, "v");
      const value = ["x", "0", "!", "x y", "-"].find((candidate) => !re.test(candidate));
      if (value === undefined) throw new Error(`no value breaks the pattern ${c.value}`);
      return value;
    }
    case "type":
      return { email: "not-an-email", number: "twelve", date: "2026-02-30" }[c.value] ?? "";
  }
}

/** The message the form's schema gives the field for these values: what the browser shows. */
export function clientMessage(schema: GenericSchema, fields: Fields, field: string) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  const submission = parseWithValibot(formData, { schema });
  return submission.status === "success" ? undefined : submission.error?.[field]?.[0];
}
