import { data } from "react-router";
import { withDebtorLink } from "~/actions/debtor-link.server";
import { noticeSwitchQuery, sendNoticesAfter } from "~/activity/index.server";
import { DEBTOR_LINK_HEADERS, DebtorLinkSteps, debtorLinkMeta } from "~/components/debtor-link-page";
import { RouteError } from "~/components/route-error";
import type { Db } from "~/db/client.server";
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

// emailed: whether the user gets an e-mail of it (their Settings switch), so the page says only what is true.
type View = { state: "confirm" | "done"; sender: string; owed: OwedTotal[]; emailed: boolean };

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

export function loader({ params, context }: Route.LoaderArgs) {
  return withDebtorLink(context, params.token, verifyPaidClaimToken, ({ db, target }) => shown(db, target));
}

export function action({ params, context }: Route.ActionArgs) {
  return withDebtorLink(context, params.token, verifyPaidClaimToken, async ({ env, config, ctx, db, target }) => {
    // The schedules are paused in D1 first, so an alarm that fires anyway sends nothing; disarming
    // saves it the wake-up.
    const { claimed } = await claimPaid({ env, db }, target.ownerId, target.debtorId);
    if (claimed) sendNoticesAfter(ctx, env, db, config, target.ownerId);
    return shown(db, target, "done");
  });
}

export default function PaidClaim({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <DebtorLinkSteps<View>
      view={actionData ?? loaderData}
      title="I've paid"
      doneTitle="Thank you"
      done={(view) =>
        view.emailed ? (
          <>
            Thank you. <strong>{view.sender}</strong> has been told and reminders are paused.
          </>
        ) : (
          <>
            Thank you. Reminders are paused and <strong>{view.sender}</strong> sees your answer in Dunly.
          </>
        )
      }
      question={(view) => `Tell ${view.sender} you have paid?`}
      explanation="Press the button and Dunly tells the sender and pauses the reminders until they have checked the payment."
      button="Yes, I have paid"
    />
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the page to tell us you've paid." />;
}

export const meta: Route.MetaFunction = () => debtorLinkMeta("I've paid");
