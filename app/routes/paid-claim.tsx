import { data, Form, useNavigation } from "react-router";
import { noticeSwitchQuery, sendNoticesAfter } from "~/activity/index.server";
import { getApp } from "~/auth/context.server";
import {
  DEBTOR_LINK_HEADERS,
  DebtorLinkPage,
  debtorLinkMeta,
  InvalidDebtorLink,
  OwedAmount,
} from "~/components/debtor-link-page";
import { RouteError } from "~/components/route-error";
import { SubmitButton } from "~/components/ui/button";
import { type Db, getDb } from "~/db/client.server";
import type { OptOutTarget } from "~/links/index.server";
import { verifyPaidClaimToken } from "~/links/index.server";
import {
  claimPaid,
  hasPendingClaimQuery,
  type OwedTotal,
  owedTotalsOf,
  owedTotalsQuery,
} from "~/responses/index.server";
import type { Route } from "./+types/paid-claim";

/**
 * The "I've paid" link of every reminder: /p/<signed token>, no session needed.
 * GET only asks (mail scanners open links); the page's button POSTs (same origin, so the Origin
 * check passes), which records the claim, pauses the debtor's reminders and tells the user on their
 * dashboard. A repeated POST changes nothing more. The page names the sender as the reminders did
 * (the organization when sent as one) and shows what is still owed; an invalid token (also an
 * opt-out or portal token) answers 404 with nothing about why.
 */

// The token is in the URL: never leak it through Referer, never cache or index the page.
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

type View =
  | { state: "invalid" }
  // emailed: whether the user gets an e-mail of it (their Settings switch), so the page says only what is true.
  | { state: "confirm" | "done"; sender: string; owed: OwedTotal[]; emailed: boolean };

const invalid = () => data<View>({ state: "invalid" }, { status: 404 });

/** The page for a valid token: whether a claim is pending (one batch with what is still owed). */
async function shown(db: Db, target: OptOutTarget, state?: "done") {
  const [claim, owed, owner] = await db.batch([
    hasPendingClaimQuery(db, target.ownerId, target.debtorId),
    owedTotalsQuery(db, target.ownerId, target.debtorId),
    noticeSwitchQuery(db, target.ownerId),
  ]);
  // Already told: say so instead of asking again.
  const told = state === "done" || claim[0]?.at != null;
  return data<View>({
    state: told ? "done" : "confirm",
    sender: target.senderName,
    owed: owedTotalsOf(owed),
    emailed: owner[0]?.on ?? false,
  });
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyPaidClaimToken(db, config, params.token);
  if (!target) return invalid();
  return shown(db, target);
}

export async function action({ params, context }: Route.ActionArgs) {
  const { env, config, ctx } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyPaidClaimToken(db, config, params.token);
  if (!target) return invalid();
  // The schedules are paused in D1 first, so an alarm that fires anyway sends nothing; disarming
  // saves it the wake-up.
  const { claimed } = await claimPaid({ env, db }, target.ownerId, target.debtorId);
  if (claimed) sendNoticesAfter(ctx, env, db, config, target.ownerId);
  return shown(db, target, "done");
}

export default function PaidClaim({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <DebtorLinkPage>
      {view.state === "invalid" ? (
        <InvalidDebtorLink title="I've paid" />
      ) : view.state === "done" ? (
        <>
          <h1 className="text-2xl font-bold">Thank you</h1>
          <p role="status" className="break-words">
            {view.emailed ? (
              <>
                Thank you. <strong>{view.sender}</strong> has been told and reminders are paused.
              </>
            ) : (
              <>
                Thank you. Reminders are paused and <strong>{view.sender}</strong> sees your answer in Dunly.
              </>
            )}
          </p>
          <OwedAmount sender={view.sender} totals={view.owed} />
        </>
      ) : (
        <Form method="post" className="flex flex-col items-center gap-6">
          <h1 className="text-2xl font-bold break-words">{`Tell ${view.sender} you have paid?`}</h1>
          <OwedAmount sender={view.sender} totals={view.owed} />
          <p className="text-muted">
            Press the button and Dunly tells the sender and pauses the reminders until they have checked the payment.
          </p>
          <SubmitButton busy={busy} size="lg">
            Yes, I have paid
          </SubmitButton>
        </Form>
      )}
    </DebtorLinkPage>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the page to tell us you've paid." />;
}

export const meta: Route.MetaFunction = () => debtorLinkMeta("I've paid");
