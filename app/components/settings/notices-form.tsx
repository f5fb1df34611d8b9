import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { SubmitButton } from "~/components/ui/button";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";

/**
 * Which e-mails about their debtors the user gets:
 * the debtor's own answers, the provider's bounces and complaints, a due-date schedule that has
 * sent its last step (all on by default), and a daily digest of them (off by default).
 */
export function NoticesForm({
  debtorActions,
  deliveryProblems,
  scheduleEnds,
  digest,
}: {
  debtorActions: boolean;
  deliveryProblems: boolean;
  scheduleEnds: boolean;
  digest: boolean;
}) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [PROFILE_INTENTS.notices]);
  return (
    <section aria-labelledby="notices-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="notices-title" className="text-xl font-semibold">
        E-mails to you
      </h2>
      <p className="mt-1 text-sm text-muted">
        Dunly e-mails you, at your own address, when something happens with a debtor.
      </p>
      <fetcher.Form method="post" className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value={PROFILE_INTENTS.notices} />
        <label className="flex items-start gap-3">
          <input type="checkbox" name="notify_debtor_actions" defaultChecked={debtorActions} className="mt-1" />
          <span>A debtor says they have paid, promises to pay, disputes an invoice or opts out</span>
        </label>
        <label className="flex items-start gap-3">
          <input type="checkbox" name="notify_delivery_problems" defaultChecked={deliveryProblems} className="mt-1" />
          <span>A reminder bounces or is marked as spam</span>
        </label>
        <label className="flex items-start gap-3">
          <input type="checkbox" name="notify_schedule_ends" defaultChecked={scheduleEnds} className="mt-1" />
          <span>A schedule that follows the due date has sent its last step and ends</span>
        </label>
        <label className="flex items-start gap-3">
          <input type="checkbox" name="notify_digest" defaultChecked={digest} className="mt-1" />
          <span>A daily digest of the last 24 hours (sent after 08:00 UTC, only on a day with something to tell)</span>
        </label>
        <div role="status" aria-live="polite" className="text-sm text-success">
          {!busy && reply?.ok ? reply.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          Save e-mails to you
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
