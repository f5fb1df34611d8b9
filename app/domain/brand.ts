import { AA_TEXT, adjustForContrast, contrastRatio, normalizeHex } from "./contrast";
import { effectivePlan, type PlanId, type PlanState } from "./plans";

/**
 * The user's brand (docs/decisions/058): the name, logo, accent colour and signature reminders,
 * receipts and the debtor's pages carry, and whether they say "Powered by Dunly". Client safe.
 */

/** Dunly's own violet: the accent of an account that chose none. */
export const DEFAULT_ACCENT = "#6d28d9";
/** The e-mail signature's longest text, in characters. */
export const SIGNATURE_MAX = 500;
/** The only plan that may remove the "Powered by Dunly" line. */
export const UNBRANDED_PLAN: PlanId = "aggressive";

/**
 * Where the accent is shown on light surfaces: the e-mail's white card and details box, the pages'
 * background and cards (app/app.css light). White text sits on the accent button.
 */
export const LIGHT_SURFACES = ["#ffffff", "#f5f5f8", "#f6f5fb"] as const;
/**
 * Where it is shown on dark ones: the pages' dark theme (app/app.css dracula: background, surface)
 * and the e-mail's dark card and details box (emails/components/layout.tsx). The button's text is
 * dark there (DARK_BUTTON_TEXT).
 */
export const DARK_SURFACES = ["#282a36", "#343746", "#1c1e26", "#262836"] as const;
export const DARK_BUTTON_TEXT = ["#1e1f29", "#1c1e26"] as const;

/** The accent as shown: its light-theme and dark-theme variants, and whether either differs from the choice. */
export interface AccentColours {
  chosen: string;
  light: string;
  dark: string;
  /** The light variant was darkened: the chosen colour is below 4.5:1 against a light surface. */
  lightAdjusted: boolean;
  /** The dark variant was lightened for the dark theme. */
  darkAdjusted: boolean;
}

/**
 * The accent for both themes: darkened (same hue) until it reaches 4.5:1 against every light surface
 * (so white on it and it on white both read), lightened until it reaches 4.5:1 against every dark
 * surface and under the dark button's text. `hex` null or malformed: Dunly's violet.
 */
export function accentColours(hex: string | null | undefined): AccentColours {
  const chosen = (hex && normalizeHex(hex)) || DEFAULT_ACCENT;
  const light = adjustForContrast(chosen, [...LIGHT_SURFACES], "darker");
  const dark = adjustForContrast(chosen, [...DARK_SURFACES], "lighter");
  return { chosen, light, dark, lightAdjusted: light !== chosen, darkAdjusted: dark !== chosen };
}

/** The contrast of a variant where it is used, for the Brand tab's explanation ("4.6:1"). */
export function contrastLabel(a: string, b: string): string {
  return `${(Math.floor(contrastRatio(a, b) * 10) / 10).toFixed(1)}:1`;
}

export { AA_TEXT };

/** Whether the account's plan now lets it remove "Powered by Dunly" (the top plan only). */
export function mayRemovePoweredBy(plan: PlanState | undefined, now: number): boolean {
  return plan !== undefined && effectivePlan(plan, now)?.id === UNBRANDED_PLAN;
}

/**
 * Whether "Powered by Dunly" shows: always, unless the user turned it off while on the top plan
 * (a later downgrade shows it again without a write).
 */
export function showsPoweredBy(stored: boolean | null | undefined, plan: PlanState | undefined, now: number): boolean {
  return stored !== false || !mayRemovePoweredBy(plan, now);
}

/** The brand as a message carries it to the mail Worker: plain values the templates show. */
export interface MessageBrand {
  /** Who is speaking: the business (or organization) name, else the user's name. */
  name: string;
  /** An absolute https (http in development) URL of the logo, fetchable without a session; null: none. */
  logoUrl: string | null;
  /** The light variant (white text on it, it on white). */
  accent: string;
  /** The dark variant (for clients in dark mode). */
  accentDark: string;
  /** The user's sign-off lines, plain text; null: none. */
  signature: string | null;
  poweredBy: boolean;
}

/** The stored brand columns of a user row (users.brand_*). */
export interface StoredBrand {
  brandLogo: string | null;
  brandAccent: string | null;
  brandSignature: string | null;
  brandPoweredBy: boolean;
}

/** The public path of a logo (app/http/image-routes.server.ts logoRoutes); the origin is the caller's. */
export function logoPath(logoName: string): string {
  return `/logos/${logoName}`;
}

/** A user's brand as messages and pages carry it. `origin`: APP_ORIGIN, for the logo's absolute URL. */
export function messageBrand(
  stored: StoredBrand,
  name: string,
  plan: PlanState | undefined,
  origin: string,
  now: number,
): MessageBrand {
  const accent = accentColours(stored.brandAccent);
  const signature = stored.brandSignature?.trim() ? stored.brandSignature.trim() : null;
  return {
    name,
    logoUrl: stored.brandLogo ? `${origin}${logoPath(stored.brandLogo)}` : null,
    accent: accent.light,
    accentDark: accent.dark,
    signature,
    poweredBy: showsPoweredBy(stored.brandPoweredBy, plan, now),
  };
}

/** A signature as the e-mail writes it: its lines, without control characters, at most SIGNATURE_MAX. */
export function signatureLines(signature: string | null | undefined): string[] {
  if (!signature) return [];
  return (
    signature
      .replace(/\r\n?/g, "\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "")
      .slice(0, SIGNATURE_MAX)
      .split("\n")
      .map((l) => l.trimEnd())
  );
}

/** A brand whose logo URL is a path, with `origin` before it (an e-mail needs an absolute URL). */
export function withLogoOrigin(brand: MessageBrand, origin: string): MessageBrand {
  if (!brand.logoUrl?.startsWith("/")) return brand;
  return { ...brand, logoUrl: `${origin}${brand.logoUrl}` };
}
