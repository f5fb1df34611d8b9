import { data, Form, useNavigation } from "react-router";
import { sendNoticesAfter } from "~/activity/index.server";
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

type View = { state: "invalid" } | { state: "confirm" | "done"; sender: string; address: string; owed: OwedTotal[] };

const invalid = () => data<View>({ state: "invalid" }, { status: 404 });

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

export async function loader({ params, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyOptOutToken(db, config, params.token);
  if (!target) return invalid();
  return shown(db, target);
}

export async function action({ params, context }: Route.ActionArgs) {
  const { env, config, ctx } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyOptOutToken(db, config, params.token);
  if (!target) return invalid();
  // Every schedule to this address for this user is completed in D1 first, so the engine drops an
  // alarm that fires anyway; disarming saves it the wake-up.
  const { debtorIds } = await optOutAddress({ env, db }, target.ownerId, target.email);
  // The user is told.
  if (debtorIds.length > 0) sendNoticesAfter(ctx, env, db, config, target.ownerId);
  return shown(db, target, "done");
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <DebtorLinkPage>
      {view.state === "invalid" ? (
        <InvalidDebtorLink title="Stop reminders" />
      ) : view.state === "done" ? (
        <>
          <h1 className="text-2xl font-bold">Reminders stopped</h1>
          <p role="status" className="break-words">
            You will not get any more reminders from <strong>{view.sender}</strong> at this address.
          </p>
          <OwedAmount sender={view.sender} totals={view.owed} />
        </>
      ) : (
        <Form method="post" className="flex flex-col items-center gap-6">
          <h1 className="text-2xl font-bold break-words">
            {`Stop payment reminders from ${view.sender} to `}
            <span className="[overflow-wrap:anywhere]">{view.address}</span>?
          </h1>
          <OwedAmount sender={view.sender} totals={view.owed} />
          <p className="text-muted">
            Press the button and Dunly sends no more reminders from this sender to this address.
          </p>
          <SubmitButton busy={busy} size="lg">
            Stop reminders
          </SubmitButton>
        </Form>
      )}
    </DebtorLinkPage>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the page to stop these reminders." />;
}

export const meta: Route.MetaFunction = () => debtorLinkMeta("Stop reminders");
