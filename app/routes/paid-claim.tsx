import { data, Form, useNavigation } from "react-router";
import { DEBTOR_LINK_HEADERS, DebtorLinkPage, debtorLinkMeta, InvalidDebtorLink } from "~/components/debtor-link-page";
import { SubmitButton } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import { claimPaid, hasPendingClaim, verifyPaidClaimToken } from "~/lib/paid-claim.server";
import { followAlarms } from "~/reminders/lifecycle.server";
import type { Route } from "./+types/paid-claim";

/**
 * The "I've paid" link of every reminder (docs/architecture.md §10): /p/<signed token>, no session needed.
 * GET only asks (mail scanners open links); the page's button POSTs (same origin, so the Origin
 * check passes), which records the claim, pauses the debtor's reminders and tells the user on their
 * dashboard. A repeated POST changes nothing more. The page shows nothing about the debt, and an
 * invalid token (also an opt-out token) answers 404 with nothing about why.
 */

// The token is in the URL: never leak it through Referer, never cache or index the page.
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

type View = { state: "invalid" } | { state: "confirm" | "done"; sender: string };

const invalid = () => data<View>({ state: "invalid" }, { status: 404 });

export async function loader({ params, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyPaidClaimToken(db, config, params.token);
  if (!target) return invalid();
  // Already told: say so instead of asking again.
  const told = await hasPendingClaim(db, target.ownerId, target.debtorId);
  return data<View>({ state: told ? "done" : "confirm", sender: target.senderName });
}

export async function action({ params, context }: Route.ActionArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyPaidClaimToken(db, config, params.token);
  if (!target) return invalid();
  // The schedules are paused in D1 first, so an alarm that fires anyway sends nothing; disarming
  // saves it the wake-up.
  const { pausedScheduleIds } = await claimPaid(db, target.ownerId, target.debtorId);
  await followAlarms(env, { disarm: pausedScheduleIds });
  return data<View>({ state: "done", sender: target.senderName });
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
            Thank you. <strong>{view.sender}</strong> has been told and reminders are paused.
          </p>
        </>
      ) : (
        <Form method="post" className="flex flex-col items-center gap-6">
          <h1 className="text-2xl font-bold break-words">{`Tell ${view.sender} you have paid?`}</h1>
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

export const meta: Route.MetaFunction = () => debtorLinkMeta("I've paid");
