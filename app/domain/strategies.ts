/** The debtor's active strategy picks the tone of every reminder (spec §3, §9). */
export const STRATEGIES = [
  { value: 1, label: "Polite" },
  { value: 2, label: "Middle Ground" },
  { value: 3, label: "Aggressive" },
] as const;
export type StrategyValue = (typeof STRATEGIES)[number]["value"];
export const DEFAULT_STRATEGY: StrategyValue = 1;

export function strategyLabel(value: number): string {
  return STRATEGIES.find((s) => s.value === value)?.label ?? STRATEGIES[0].label;
}
