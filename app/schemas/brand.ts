import * as v from "valibot";
import { SIGNATURE_MAX } from "~/domain/brand";
import { normalizeHex } from "~/domain/contrast";

/**
 * Settings → Brand (docs/decisions/058): the accent colour, the e-mail signature and "Powered by
 * Dunly". One schema for the browser and the action; the plan rule on "Powered by Dunly" is the
 * server's (app/account/brand.server.ts saveBrand).
 */

export const ACCENT_MESSAGE = "Please enter a colour as # and six hexadecimal digits, like #6d28d9";
export const SIGNATURE_MESSAGE = `Please keep the signature to ${SIGNATURE_MAX} characters`;

export const BRAND_INTENTS = { save: "brand-save", logo: "brand-logo", removeLogo: "brand-logo-remove" } as const;

export const BrandSchema = v.object({
  // Blank: Dunly's violet.
  accent: v.optional(
    v.pipe(
      v.string(ACCENT_MESSAGE),
      v.trim(),
      v.check((s) => normalizeHex(s) !== null, ACCENT_MESSAGE),
      v.transform((s) => normalizeHex(s) as string),
    ),
  ),
  // Plain text, several lines; shown as text (escaped), never as HTML.
  signature: v.optional(
    v.pipe(
      v.string(SIGNATURE_MESSAGE),
      v.transform((s) => s.replace(/\r\n?/g, "\n").trim()),
      v.maxLength(SIGNATURE_MAX, SIGNATURE_MESSAGE),
    ),
  ),
  // A checkbox: "on" when ticked, absent when not.
  powered_by: v.optional(v.literal("on")),
});
