import { data } from "react-router";
import { withDebtorLink } from "~/actions/debtor-link.server";
import { sendNoticesAfter } from "~/activity/index.server";
import { DEBTOR_LINK_HEADERS, DebtorLinkSteps, debtorLinkMeta } from "~/components/debtor-link-page";
import { RouteError } from "~/components/route-error";
import type { Db } from "~/db/client.server";
import { maskEmail } from "~/domain/mask-email";
import { type OptOutTarget, verifyOptOutToken } from "~/links/index.server";
import { isOptedOut, type OwedTotal, optOutAddress, owedTotalsOf, owedTotalsQuery } from "~/responses/index.server";
import type { Route } from "./+types/unsubscribe";

/**
 * The opt-out link of every reminder: /u/<signed token>, no session needed.
 * GET only asks (mail scanners open links); a POST opts the address out of the sender's reminders:
 * the page's button, or the RFC 8058 one-click POST a mail client sends from List-Unsubscribe-Post
 * without cookies and with any Origin or none (workers/app.ts exempts /u/ from the Origin check and
 * drops the Origin of that POST before React Router's own check; the token authenticates). A repeated POST changes nothing more. The page names the sender as the reminders
 * did (the organization when sent as one) and what is still owed, never the full address; an
 * invalid token answers 404 with nothing about why.
 */

// The token is in the URL: never leak it through Referer, never cache or index the page.
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

type View = { state: "confirm" | "done"; sender: string; address: string; owed: OwedTotal[] };

async function shown(db: Db, target: OptOutTarget, done?: "done") {
  const [optedOut, owed] = await Promise.all([
    done ? true : isOptedOut(db, target.ownerId, target.email),
    owedTotalsQuery(db, target.ownerId, target.debtorId),
  ]);
  return data<View>({
    // Already opted out: say so instead of asking again.
    state: optedOut ? "done" : "confirm",
    sender: target.senderName,
    address: maskEmail(target.email),
    owed: owedTotalsOf(owed),
  });
}

export function loader({ params, context }: Route.LoaderArgs) {
  return withDebtorLink(context, params.token, verifyOptOutToken, ({ db, target }) => shown(db, target));
}

export function action({ params, context }: Route.ActionArgs) {
  return withDebtorLink(context, params.token, verifyOptOutToken, async ({ env, config, ctx, db, target }) => {
    // Every schedule to this address for this user is completed in D1 first, so the engine drops an
    // alarm that fires anyway; disarming saves it the wake-up.
    const { debtorIds } = await optOutAddress({ env, db }, target.ownerId, target.email);
    // The user is told.
    if (debtorIds.length > 0) sendNoticesAfter(ctx, env, db, config, target.ownerId);
    return shown(db, target, "done");
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <DebtorLinkSteps<View>
      view={actionData ?? loaderData}
      title="Stop reminders"
      doneTitle="Reminders stopped"
      done={(view) => (
        <>
          You will not get any more reminders from <strong>{view.sender}</strong> at this address.
        </>
      )}
      question={(view) => (
        <>
          {`Stop payment reminders from ${view.sender} to `}
          <span className="[overflow-wrap:anywhere]">{view.address}</span>?
        </>
      )}
      explanation="Press the button and Dunly sends no more reminders from this sender to this address."
      button="Stop reminders"
    />
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the page to stop these reminders." />;
}

export const meta: Route.MetaFunction = () => debtorLinkMeta("Stop reminders");
