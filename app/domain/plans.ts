import type { FrequencyId } from "./frequencies";
import { formatCount } from "./intl";

/**
 * Dunly's plans (docs/decisions/019): ONE table that /pricing renders and the server enforces.
 * Debtors per plan (the debtor add, the CSV import and the API), the reminder frequencies a new or
 * edited schedule may use, and the daily sending quota (app/domain/limits.ts). A limit is in
 * addition to the account caps (ACCOUNT_MAX_*, app/domain/account-caps.ts). A downgrade deletes
 * nothing: what the account has keeps running, only the next add over a limit is refused.
 * Client-safe: no server code.
 */
export type PlanId = "soft" | "medium" | "aggressive";

export interface Plan {
  id: PlanId;
  name: string;
  tagline: string;
  /** US dollars a month (Stripe's price for the plan is configuration: STRIPE_PRICE_*). */
  price: number;
  /** The most debtors the account may keep; null: only the account cap (ACCOUNT_MAX_DEBTORS). */
  maxDebtors: number | null;
  /** The frequencies a schedule may be created or edited with. */
  frequencies: readonly FrequencyId[];
  /** Reminders the account may send in any 24 hours. */
  dailyReminders: number;
  /**
   * Text messages the account may send in a calendar month (UTC; app/domain/phone.ts `textMonth`),
   * counted once per text that leaves; 0: the plan has no texts. A text step past it is held and the
   * user told (decisions/069).
   */
  monthlyTexts: number;
  popular: boolean;
}

export const PLANS: readonly Plan[] = [
  {
    id: "soft",
    name: "Soft",
    tagline: "the soft approach: polite",
    price: 3,
    maxDebtors: 25,
    frequencies: ["weekly", "now", "due"],
    dailyReminders: 10,
    monthlyTexts: 0,
    popular: false,
  },
  {
    id: "medium",
    name: "Medium",
    tagline: "most popular",
    price: 5,
    maxDebtors: 250,
    frequencies: ["daily", "weekly", "now", "due"],
    dailyReminders: 25,
    monthlyTexts: 100,
    popular: true,
  },
  {
    id: "aggressive",
    name: "Aggressive",
    tagline: "all out war",
    price: 10,
    maxDebtors: null,
    frequencies: ["daily", "weekly", "now", "due"],
    dailyReminders: 50,
    monthlyTexts: 500,
    popular: false,
  },
];

export const PLAN_IDS: readonly PlanId[] = PLANS.map((p) => p.id);

/** The plan of a new account's free trial, and its length (docs/decisions/019). */
export const TRIAL_PLAN: PlanId = "medium";
export const TRIAL_DAYS = 14;
export const TRIAL_MS = TRIAL_DAYS * 24 * 60 * 60_000;
/** The trial's first e-mail goes this long before it ends. */
export const TRIAL_WARNING_MS = 3 * 24 * 60 * 60_000;

/** Reminder templates every plan has: four escalating e-mails and a single one, each in three tones. */
export const TEMPLATE_COUNT = 5;
export const TONE_COUNT = 3;

export function isPlanId(id: unknown): id is PlanId {
  return typeof id === "string" && (PLAN_IDS as readonly string[]).includes(id);
}

export function getPlan(id: PlanId): Plan {
  return PLANS.find((p) => p.id === id) as Plan;
}

/** The display name of a plan id ("medium" → "Medium"); an unknown id is shown as it is. */
export function planName(id: string): string {
  return PLANS.find((p) => p.id === id)?.name ?? id;
}

const FREQUENCY_WORDS: Record<FrequencyId, string> = {
  daily: "daily",
  weekly: "weekly",
  now: "one-time",
  due: "due-date",
};

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * What a plan's card promises, each line true of what the app enforces. `accountMaxDebtors` is the
 * account cap (ACCOUNT_MAX_DEBTORS) that bounds a plan without a debtors limit of its own: its card
 * names that number, never "unlimited" (the add past it is refused).
 */
export function planFeatures(plan: Plan, accountMaxDebtors: number): string[] {
  const all = plan.frequencies.length === 4;
  const freq = listWords(plan.frequencies.map((f) => FREQUENCY_WORDS[f]));
  const maxDebtors = Math.min(plan.maxDebtors ?? accountMaxDebtors, accountMaxDebtors);
  return [
    `Up to ${formatCount(maxDebtors)} debtors`,
    all ? `Every reminder frequency: ${freq}` : `${freq[0]?.toUpperCase()}${freq.slice(1)} reminders (no daily ones)`,
    `Up to ${formatCount(plan.dailyReminders)} reminders a day`,
    `All ${TEMPLATE_COUNT} e-mail templates in ${TONE_COUNT} tones`,
    textAllowanceLine(plan),
  ];
}

/** The plan card's words for texts: exactly the allowance the send enforces. */
export function textAllowanceLine(plan: Plan): string {
  if (plan.monthlyTexts === 0) return "No text messages";
  return `Up to ${formatCount(plan.monthlyTexts)} text messages a month, to the countries you enable`;
}

/** What the user is told when a text step is held because the month's allowance is used up. */
export function textAllowanceMessage(plan: Plan, resumesOn: string): string {
  if (plan.monthlyTexts === 0)
    return `Your ${plan.name} plan has no text messages. Upgrade on the Pricing page to send texts.`;
  return `Your ${plan.name} plan's ${formatCount(plan.monthlyTexts)} text messages this month are used. Texts go again on ${resumesOn}, or upgrade on the Pricing page.`;
}

/** The refusal of a debtor add over the plan's limit (the message names the limit). */
export function debtorLimitMessage(plan: Plan): string {
  return `Your ${plan.name} plan allows up to ${formatCount(plan.maxDebtors ?? 0)} debtors. Upgrade on the Pricing page to add more.`;
}

/** The field error of a schedule whose frequency the plan does not include. */
export function frequencyRefusal(plan: Plan | null, frequency: string): string | null {
  if (!plan) return "Your trial has ended: choose a plan on the Pricing page to create or change schedules.";
  if ((plan.frequencies as readonly string[]).includes(frequency)) return null;
  return `Your ${plan.name} plan does not include ${FREQUENCY_WORDS[frequency as FrequencyId] ?? frequency} reminders. Upgrade on the Pricing page to use them.`;
}

/** Subscription statuses that keep the subscribed plan (past_due: Stripe is retrying the card). */
const PLAN_STATUSES = new Set(["active", "trialing", "past_due"]);

/** What decides an account's plan (users' billing columns, migration 0019). */
export interface PlanState {
  plan: string;
  subscriptionStatus: string | null;
  trialEndsAt: number | null;
  createdAt: number;
}

/** When the account's trial ends (an account made before the column was set: 14 days after it was made). */
export function trialEnd(state: Pick<PlanState, "trialEndsAt" | "createdAt">): number {
  return state.trialEndsAt ?? state.createdAt + TRIAL_MS;
}

/**
 * The plan the account has now: its subscription's while active (or past due, while Stripe
 * retries), else the trial's plan until the trial ends, else none: reminders hold.
 */
export function effectivePlan(state: PlanState, now: number): Plan | null {
  if (state.subscriptionStatus && PLAN_STATUSES.has(state.subscriptionStatus) && isPlanId(state.plan)) {
    return getPlan(state.plan);
  }
  if (now < trialEnd(state)) return getPlan(TRIAL_PLAN);
  return null;
}

/** Whether the account is in its trial now (no active subscription, trial not ended). */
export function inTrial(state: PlanState, now: number): boolean {
  const subscribed = state.subscriptionStatus !== null && PLAN_STATUSES.has(state.subscriptionStatus);
  return !subscribed && now < trialEnd(state);
}
