import type * as v from "valibot";
import { type Db, getDb } from "~/db/client.server";
import type { AccountCaps, CappedKind } from "~/domain/account-caps";
import type { NumberLocale } from "~/domain/number-locale";
import { debtorLimitMessage, effectivePlan, getPlan, type Plan, type PlanState, TRIAL_PLAN } from "~/domain/plans";
import { type AppConfig, accountCaps } from "~/platform/config.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import type { RecordMessages } from "~/schemas/messages";
import { paymentToday } from "~/schemas/payment";
import { readCookie } from "./cookies.server";

/**
 * One description per entity (docs/decisions/012): what the form actions
 * and the JSON API both need to make the same change the same way. Each entity module
 * (debtors.server.ts, organizations.server.ts, payments.server.ts, schedules.server.ts) describes
 * its intents, messages, schemas and operations; an operation does the whole change, schedules
 * and their alarms included, so neither caller
 * does anything to a schedule itself.
 */

/** What a write that may stop reminders needs: the database, and the bindings to tell the schedules' alarms. */
export interface DataScope {
  env: Env;
  db: Db;
}

/** What a write acts for: the bindings, the owner from the session, and the time. */
export interface OwnerScope extends DataScope {
  ownerId: string;
  now: number;
}

/** What an operation acts for: the lifecycle's scope, the account's caps and the caller's zone and day. */
export interface EntityScope extends OwnerScope {
  /** The account's caps (ACCOUNT_MAX_*): an add past its cap throws AccountCapReached. */
  caps: AccountCaps;
  /** The refusal of a cap that is the plan's limit rather than the account's (names the plan and its limit). */
  capMessages: Partial<Record<CappedKind, string>>;
  /** The account's plan now (app/domain/plans.ts); null: the trial ended without a plan, reminders hold. */
  accountPlan: Plan | null;
  /** The caller's IANA zone (the `tz` cookie, UTC when unknown): a new debtor's when none is given. */
  timeZone: string;
  /** "YYYY-MM-DD", the latest date a payment may have: the caller's today (paymentToday). */
  today: string;
  /** The user's number format: how the forms' amounts are read (requestNumberLocale). */
  locale: NumberLocale;
}

/**
 * The scope of a request by the signed-in `user`: the same for a form action and an API call. The
 * debtors cap is the plan's limit where that is lower than the account cap (docs/decisions/019); an
 * account without a plan keeps the trial plan's limits for what it enters (nothing is sent).
 */
export function entityScope(
  env: Env,
  config: AppConfig,
  user: PlanState & { id: string; locale?: string | null },
  request: Request,
): EntityScope {
  const now = Date.now();
  const caps = accountCaps(config);
  const accountPlan = effectivePlan(user, now);
  const limits = accountPlan ?? getPlan(TRIAL_PLAN);
  const capMessages: EntityScope["capMessages"] = {};
  if (limits.maxDebtors !== null && limits.maxDebtors < caps.debtors) {
    caps.debtors = limits.maxDebtors;
    capMessages.debtors = debtorLimitMessage(limits);
  }
  return {
    env,
    db: getDb(env.DB),
    ownerId: user.id,
    now,
    caps,
    capMessages,
    accountPlan,
    timeZone: requestTimeZone(request),
    today: paymentToday(readCookie(request, "tz"), now),
    locale: requestNumberLocale(request, user),
  };
}

/**
 * A record the user adds, edits and deletes as a whole (debtors, organizations): the form's
 * intents and the API's add / edit / del calls are both made from this.
 */
export interface OwnedEntity<Input, Row> {
  /** Lower-case, as the logs name it: 'debtor'. */
  noun: string;
  /** The intents the forms post (app/schemas/intents.ts). */
  intents: { add: string; edit: string; remove: string };
  /** What the form's toasts and the API's answers say (app/schemas/messages.ts). */
  messages: RecordMessages;
  /**
   * The same fields as a form posts them (conform; amounts in the user's number format) and as a
   * JSON body (numbers may be numeric strings with a dot).
   */
  schemas: {
    form: (scope: Pick<EntityScope, "locale">) => v.GenericSchema<unknown, Input>;
    json: v.GenericSchema<unknown, Input>;
  };
  /**
   * Adds the record; throws AccountCapReached (keeping nothing) when the account is at its cap, and
   * TwinFound when the account already has the same record (a debtor's e-mail) unless the caller
   * says `allowDuplicate`.
   */
  create(scope: EntityScope, input: Input, options?: { allowDuplicate?: boolean }): Promise<Row>;
  /** Changes the owner's record; undefined when it is not theirs (nothing changes). */
  update(scope: EntityScope, id: number, input: Input): Promise<Row | undefined>;
  /** Deletes the owner's record; false when it is not theirs (nothing changes). */
  remove(scope: EntityScope, id: number): Promise<boolean>;
  /** The record as the API answers it (the spec's names). */
  toJson(row: Row, ownerId: string): unknown;
}
