import { Loader2, Send } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { useRefetchAfterSend } from "~/lib/use-refetch-after-send";
import { notify, type ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import type { ScheduleActionData } from "~/models/schedule-actions.server";

/**
 * 'Re-send reminders' for the selected debtors: each gets a Single Reminder now. The selection
 * clears whether it worked or not (spec §4); the lists refetch after 2 s and 4 s (spec §7).
 */
export function ResendButton({ ids, onDone, area }: { ids: number[]; onDone: () => void; area: ToastArea }) {
  const fetcher = useFetcher<ScheduleActionData>();
  const refetch = useRefetchAfterSend();
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    notify(fetcher.data.ok ? "success" : "error", fetcher.data.message ?? "Something went wrong.", area);
    onDone();
    if (fetcher.data.ok) refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form method="post" action="/schedules/actions">
      <input type="hidden" name="intent" value="debtor-resend" />
      {ids.map((id) => (
        <input key={id} type="hidden" name="ids" value={id} />
      ))}
      <Button type="submit" disabled={busy}>
        {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Send className="h-4 w-4" aria-hidden />}
        Re-send reminders
      </Button>
    </fetcher.Form>
  );
}
