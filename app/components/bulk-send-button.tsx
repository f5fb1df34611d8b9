import { Loader2, Send } from "lucide-react";
import { useFetcher } from "react-router";
import type { scheduleAction } from "~/actions/schedule-action.server";
import { notify, type ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import type { DEBTOR_INTENTS, SCHEDULE_INTENTS } from "~/schemas/intents";
import { SCHEDULE_SOMETHING_WRONG } from "~/schemas/messages";
import { useFormResult } from "~/ui/use-form-result";
import { useRefetchAfterSend } from "~/ui/use-refetch-after-send";

/**
 * A bulk action for the selected rows (debtors' 'Re-send reminders', 'Follow the account cadence',
 * 'Pause reminders', 'Resume reminders'; schedules' 'Send next reminder now'): posts the ids, toasts the outcome, clears the selection whether it worked or not (spec
 * §4) and refetches after 2 s and 4 s so the counts catch up with the alarms (docs/product-spec.md §7).
 */
export function BulkSendButton({
  intent,
  ids,
  label,
  onDone,
  area,
  secondary = false,
}: {
  intent:
    | typeof DEBTOR_INTENTS.resend
    | typeof DEBTOR_INTENTS.followCadence
    | typeof DEBTOR_INTENTS.pauseReminders
    | typeof DEBTOR_INTENTS.resumeReminders
    | typeof SCHEDULE_INTENTS.sendNow;
  ids: (string | number)[];
  label: string;
  onDone: () => void;
  area: ToastArea;
  /** Beside the main action: outlined, without the send icon. */
  secondary?: boolean;
}) {
  const fetcher = useFetcher<typeof scheduleAction>();
  const refetch = useRefetchAfterSend();
  const busy = fetcher.state !== "idle";
  useFormResult(fetcher, [intent], (data) => {
    notify(data.ok ? "success" : "error", data.message ?? SCHEDULE_SOMETHING_WRONG, area);
    onDone();
    if (data.ok) refetch();
  });
  return (
    <fetcher.Form method="post" action="/schedules/actions">
      <input type="hidden" name="intent" value={intent} />
      {ids.map((id) => (
        <input key={id} type="hidden" name="ids" value={id} />
      ))}
      <Button type="submit" disabled={busy} variant={secondary ? "outline" : undefined}>
        {busy ? (
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
        ) : secondary ? null : (
          <Send className="h-4 w-4" aria-hidden />
        )}
        {label}
      </Button>
    </fetcher.Form>
  );
}
