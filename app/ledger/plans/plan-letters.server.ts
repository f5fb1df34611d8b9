import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import type { PlanLetterKind } from "~/domain/plan-letter";
import { debtorParties, portalLink } from "~/links/index.server";
import { sendRecorded } from "~/mail/index.server";
import type { AppConfig } from "~/platform/config.server";
import type { OwnerScope } from "~/platform/scope.server";
import type { PlanView } from "./plans.server";

/**
 * The debtor's e-mail about their plan (decisions/066), in their language with their page's link:
 * recorded before it is sent (retried by the watchdog, listed in Settings → E-mails) under
 * `plan:<plan>:<instalment or 0>:<kind>`, so each goes at most once. Not to an address that opted
 * out or bounces; an instalment's reminder or nudge not to a debtor who paid. Never throws: the plan
 * changed either way. Returns whether it was recorded.
 */
export async function sendPlanLetter(
  { env, db, ownerId }: Pick<OwnerScope, "env" | "db" | "ownerId">,
  config: AppConfig,
  plan: Pick<PlanView, "id" | "debtorId" | "currency" | "totalCents" | "instalments">,
  kind: PlanLetterKind,
  extra: { seq?: number; dueCents?: number; note?: string } = {},
): Promise<boolean> {
  try {
    const parties = await debtorParties(db, ownerId, plan.debtorId, config);
    if (!parties || parties.status === "opted_out" || parties.status === "bouncing") return false;
    if ((kind === "before" || kind === "after") && parties.status === "paid") return false;
    const money = (cents: number) => formatMoney(cents, plan.currency, parties.moneyLocale);
    const date = (on: string) => formatDate(on, parties.locale);
    const due = plan.instalments.find((i) => i.seq === extra.seq);
    await sendRecorded(env, db, {
      ownerId,
      debtorId: plan.debtorId,
      key: `plan:${plan.id}:${extra.seq ?? 0}:${kind}`,
      email: {
        kind: "plan-letter",
        message: {
          to: parties.email,
          senderName: parties.senderName,
          replyTo: parties.replyTo,
          debtorName: parties.debtorName,
          kind,
          total: money(plan.totalCents),
          instalments: plan.instalments.map((i) => ({ date: date(i.dueOn), amount: money(i.amountCents) })),
          due: due ? { date: date(due.dueOn), amount: money(extra.dueCents ?? due.amountCents) } : null,
          note: extra.note ?? "",
          portalUrl: await portalLink(db, config, { id: plan.debtorId, ownerId, optOutKey: parties.optOutKey }),
          language: parties.language,
          brand: parties.brand,
        },
      },
    });
    return true;
  } catch (error) {
    console.error(`[dunly] the ${kind} e-mail of plan ${plan.id} failed: ${(error as Error).message}`);
    return false;
  }
}
