/** The debtor's active strategy picks the tone of every reminder. */
export const STRATEGIES = [
  { value: 1, label: "Polite" },
  { value: 2, label: "Middle Ground" },
  { value: 3, label: "Aggressive" },
] as const;

/** A reminder's tone: 1 Polite, 2 Middle Ground, 3 Aggressive (a debtor's active strategy). */
export type Tone = (typeof STRATEGIES)[number]["value"];

/** Every tone, mildest first. */
export const TONES: readonly Tone[] = STRATEGIES.map((s) => s.value);

export const DEFAULT_STRATEGY: Tone = 1;

/** True for 1, 2 or 3. */
export function isTone(value: unknown): value is Tone {
  return TONES.includes(value as Tone);
}

/** A stored or submitted strategy as a tone; anything unknown reads as Polite. */
export function toTone(value: unknown): Tone {
  return isTone(value) ? value : DEFAULT_STRATEGY;
}

/** The strategy's name ("Polite" for an unknown value). */
export function strategyLabel(value: number): string {
  const tone = toTone(value);
  return STRATEGIES.find((s) => s.value === tone)?.label ?? STRATEGIES[0].label;
}
