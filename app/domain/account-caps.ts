import { formatCount } from "./intl";

/**
 * Per-account caps: how many debtors, organizations and live schedules one
 * account may keep, so no account can grow Dunly's tables (or its mail) without bound. The values
 * are configuration (ACCOUNT_MAX_* in wrangler.toml); these are the defaults when one is unset.
 */
export const DEFAULT_ACCOUNT_CAPS = { debtors: 2000, organizations: 50, schedules: 2000 } as const;

/**
 * The most payments one debtor keeps: growth stays bounded, and the
 * debtor's modal lists them all.
 */
export const MAX_PAYMENTS_PER_DEBTOR = 1000;

export type CappedKind = keyof typeof DEFAULT_ACCOUNT_CAPS;

export type AccountCaps = Record<CappedKind, number>;

const NOUNS: Record<CappedKind, { plural: string; remedy: string }> = {
  debtors: { plural: "debtors", remedy: "Delete debtors you no longer need to add new ones." },
  organizations: { plural: "organizations", remedy: "Delete organizations you no longer need to add new ones." },
  // Only live schedules count: completed ones are history and cost nothing more.
  schedules: {
    plural: "active schedules",
    remedy: "Disable schedules you no longer need to create new ones.",
  },
};

/** The refusal a user sees when an account is at its cap of `kind`. */
function capMessage(kind: CappedKind, max: number): string {
  const { plural, remedy } = NOUNS[kind];
  return `This account has reached its limit of ${formatCount(max)} ${plural}. ${remedy}`;
}

/** Thrown by a model's create when the new rows would take the account past its cap; nothing is kept. */
export class AccountCapReached extends Error {
  constructor(
    readonly kind: CappedKind,
    readonly max: number,
    // The plan's limit, when it is the one reached, names itself (app/domain/plans.ts).
    message?: string,
  ) {
    super(message ?? capMessage(kind, max));
    this.name = "AccountCapReached";
  }
}
