/**
 * WCAG 2.x contrast (docs/decisions/058): the relative luminance of an sRGB colour and the ratio of
 * two, and the accent a user chooses made readable where Dunly shows it. Pure, client safe.
 */

/** AA for normal text (and a fortiori for a control against what surrounds it). */
export const AA_TEXT = 4.5;

type Rgb = readonly [number, number, number];

const HEX_RE = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** "#6D28D9", "6d28d9" or "#63c" as "#6d28d9"; null for anything else. */
export function normalizeHex(input: string): string | null {
  const m = HEX_RE.exec(input.trim());
  if (!m?.[1]) return null;
  const digits = m[1].toLowerCase();
  const six = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  return `#${six}`;
}

function rgbOf(hex: string): Rgb {
  const six = normalizeHex(hex);
  if (!six) throw new Error(`Not a hex colour: ${hex}`);
  return [
    Number.parseInt(six.slice(1, 3), 16),
    Number.parseInt(six.slice(3, 5), 16),
    Number.parseInt(six.slice(5, 7), 16),
  ];
}

function hexOf([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The lowest ratio of `colour` against each of `surfaces`. */
export function minContrast(colour: string, surfaces: readonly string[]): number {
  return Math.min(...surfaces.map((s) => contrastRatio(colour, s)));
}

function hslOf(hex: string): [number, number, number] {
  const [r, g, b] = rgbOf(hex).map((v) => v / 255) as unknown as Rgb;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

function hexFromHsl(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return hexOf([f(0) * 255, f(8) * 255, f(4) * 255]);
}

/**
 * `hex` made to reach `ratio` against every one of `surfaces` by moving only its lightness (the
 * hue and saturation stay): darker for light surfaces, lighter for dark ones. Already enough: the
 * colour itself. Black passes on any light surface and white on any dark one, so this ends.
 */
export function adjustForContrast(
  hex: string,
  surfaces: readonly string[],
  direction: "darker" | "lighter",
  ratio = AA_TEXT,
): string {
  const start = normalizeHex(hex);
  if (!start) throw new Error(`Not a hex colour: ${hex}`);
  if (minContrast(start, surfaces) >= ratio) return start;
  const [h, s, l] = hslOf(start);
  const step = direction === "darker" ? -0.005 : 0.005;
  for (let next = l + step; next >= 0 && next <= 1; next += step) {
    const candidate = hexFromHsl(h, s, next);
    if (minContrast(candidate, surfaces) >= ratio) return candidate;
  }
  return direction === "darker" ? "#000000" : "#ffffff";
}
