import { BadgeCheck } from "lucide-react";
import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { notOnServer, onDemand } from "~/components/on-demand";
import { notify } from "~/components/toast";
import { Button, SubmitButton } from "~/components/ui/button";
import { formatDayOf } from "~/domain/dates";
import type { ActionResult } from "~/platform/action-result";
import { PAID_CLAIM_INTENTS } from "~/schemas/intents";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import type { PaidClaimView } from "./confirm-payment-form";

export type { PaidClaimView } from "./confirm-payment-form";

const { resume: RESUME } = PAID_CLAIM_INTENTS;

/** The URL parameter that opens a claim's payment form in the notice itself (without JavaScript). */
export const CONFIRM_PARAM = "confirm";

const confirmDialog = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("./confirm-payment-dialog").then((m) => m.ConfirmPaymentDialog),
);

// The payment form in the notice itself (without JavaScript, or a ?confirm= link followed): the
// server renders it; in the browser its code (the form library and its schema) is fetched only on
// such a page, whose server-rendered form stays as it is until then (React hydrates it when the code
// is here). docs/decisions/027-what-loads-on-interaction.md.
const InlineConfirmForm = lazy(() => import("./confirm-payment-form").then((m) => ({ default: m.ConfirmPaymentForm })));

const noop = () => () => {};
/** False on the server and while hydrating, true once React runs the page in the browser. */
const useHydrated = () =>
  useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );

/**
 * Debtors who said "I've paid": what they paid leaves reminders until the user confirms the
 * payment (the payment form, in a dialog, prefilled with what they said; nothing is recorded before
 * the user submits it) or marks it not received (the debtor is told, the reminders go on).
 * `today`: the user's date as the server knows it, for the form shown without JavaScript.
 */
export function PaidClaimsNotice({
  claims,
  timeZone,
  today,
}: {
  claims: PaidClaimView[];
  timeZone: string;
  today: string;
}) {
  if (claims.length === 0) return null;
  return (
    <section
      aria-labelledby="paid-claims-heading"
      className="flex flex-col gap-3 rounded-xl border border-success bg-surface p-4"
      data-testid="paid-claims-notice"
    >
      <div className="flex items-start gap-2">
        <BadgeCheck className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
        <h2 id="paid-claims-heading" className="text-sm font-medium">
          {claims.length === 1
            ? "A debtor says they have paid: reminders leave out what they paid until you answer."
            : `${claims.length} debtors say they have paid: reminders leave out what they paid until you answer.`}
        </h2>
      </div>
      <ul className="flex flex-col gap-3">
        {claims.map((claim) => (
          <ClaimRow key={claim.id} claim={claim} timeZone={timeZone} today={today} />
        ))}
      </ul>
    </section>
  );
}

/** The page's URL with `confirm` set to the claim's debtor (or removed). */
function useConfirmHref(debtorId: number | null) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  if (debtorId === null) params.delete(CONFIRM_PARAM);
  else params.set(CONFIRM_PARAM, String(debtorId));
  const query = params.toString();
  return { href: `${pathname}${query ? `?${query}` : ""}`, current: new URLSearchParams(search).get(CONFIRM_PARAM) };
}

function ClaimRow({ claim, timeZone, today }: { claim: PaidClaimView; timeZone: string; today: string }) {
  const locale = useLocale();
  const fetcher = useFetcher<typeof debtorAction>();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so that closing it gives the focus back to the button.
  const [opened, setOpened] = useState(false);
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [RESUME], (data) => {
    if (data.message) notify(data.ok ? "success" : "error", data.message, "dashboard");
  });
  const confirmed = (data: ActionResult) => {
    if (data.message) notify(data.ok ? "success" : "error", data.message, "dashboard");
    if (data.ok) setOpen(false);
  };
  const link = useConfirmHref(claim.id);
  const back = useConfirmHref(null);
  // Without JavaScript (or a link followed before hydration), the form shows in the notice itself.
  const inline = link.current === String(claim.id);
  const textId = `paid-claim-${claim.id}`;
  const Dialog = confirmDialog.Lazy;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border bg-background p-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p id={textId} className="break-words text-sm">
          <strong>{claim.fullName}</strong> {claim.said ? `says they paid ${claim.said}` : "says they have paid"} (told{" "}
          {formatDayOf(claim.paidClaimedAt, timeZone, locale)}).
        </p>
        <fetcher.Form method="post" className="flex flex-wrap gap-2">
          <input type="hidden" name="debtor_id" value={claim.id} />
          {hydrated && !inline ? (
            <Button
              type="button"
              size="sm"
              aria-haspopup="dialog"
              aria-describedby={textId}
              disabled={busy}
              onClick={() => {
                setOpened(true);
                setOpen(true);
              }}
              onPointerEnter={confirmDialog.preload}
              onFocus={confirmDialog.preload}
            >
              Confirm payment
            </Button>
          ) : (
            !inline && (
              <Button asChild size="sm">
                <Link to={link.href} aria-describedby={textId} preventScrollReset>
                  Confirm payment
                </Link>
              </Button>
            )
          )}
          <SubmitButton
            name="intent"
            value={RESUME}
            size="sm"
            variant="outline"
            busy={busy}
            disabled={busy}
            aria-describedby={textId}
          >
            Not received
          </SubmitButton>
        </fetcher.Form>
      </div>
      {/* Without JavaScript the page comes back with the answer here. */}
      {reply && !reply.ok && reply.message && (
        <p role="alert" className="text-sm text-danger">
          {reply.message}
        </p>
      )}
      {inline && (
        <section aria-label={`Confirm the payment of ${claim.fullName}`} className="border-t border-border pt-3">
          <Suspense fallback={null}>
            <InlineConfirmForm claim={claim} today={today} onResult={confirmed} />
          </Suspense>
          <Link to={back.href} className="mt-2 inline-block text-sm text-primary underline-offset-4 hover:underline">
            Cancel
          </Link>
        </section>
      )}
      {opened && (
        <Suspense fallback={null}>
          <Dialog claim={claim} open={open} onOpenChange={setOpen} onResult={confirmed} />
        </Suspense>
      )}
    </li>
  );
}
