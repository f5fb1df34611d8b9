import { Loader2 } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { scheduleAction } from "~/actions/schedule-action.server";
import type { scheduleDetails } from "~/actions/schedule-details.server";
import { DebtorBalance } from "~/components/debtors/debtor-balance";
import { type ConfigureStep, ConfirmStep } from "~/components/lists/configure-steps";
import { notify, type ToastArea } from "~/components/toast";
import { Button, SubmitButton } from "~/components/ui/button";
import { Modal } from "~/components/ui/dialog";
import { formatDateTime } from "~/domain/dates";
import { scheduleStatus } from "~/domain/schedule-status";
import { strategyLabel } from "~/domain/strategies";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { SCHEDULE_SOMETHING_WRONG } from "~/schemas/messages";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import { describeFrequency, presetName } from "./format";

// The form (with its date picker) loads only when someone edits: the list pages stay light.
const ScheduleForm = lazy(() => import("./schedule-form"));

function Spinner({ label }: { label: string }) {
  return (
    <div className="flex items-center justify-center gap-2 py-10 text-muted" role="status">
      <Loader2 className="h-5 w-5 animate-spin" aria-hidden /> {label}
    </div>
  );
}

/**
 * 'Configure schedule' (docs/product-spec.md §2): a loading indicator while the details load, then the details
 * card with Pause or Resume, Disable and Edit. Pause keeps the schedule and stops its alarm; Resume
 * starts it again from its next run. Disable asks first and deletes the schedule
 * and its alarm; Edit changes the schedule in place (same schedule, re-armed) with Cancel and Update.
 */
export function ConfigureScheduleModal({
  scheduleId,
  onClose,
  area,
  timeZone,
}: {
  scheduleId: string | null;
  onClose: () => void;
  area: ToastArea;
  timeZone: string;
}) {
  const [view, setView] = useState<ConfigureStep>("details");
  const locale = useLocale();
  const details = useFetcher<typeof scheduleDetails>();
  const deleter = useFetcher<typeof scheduleAction>();
  useFormResult(deleter, [SCHEDULE_INTENTS.remove], (data) => {
    notify(data.ok ? "success" : "error", data.message ?? SCHEDULE_SOMETHING_WRONG, area);
    if (data.ok) onClose();
  });
  // Pause and resume keep the modal open: the details reload with the new state.
  const stateChanger = useFetcher<typeof scheduleAction>();
  useFormResult(stateChanger, [SCHEDULE_INTENTS.pause, SCHEDULE_INTENTS.resume], (data) => {
    notify(data.ok ? "success" : "error", data.message ?? SCHEDULE_SOMETHING_WRONG, area);
  });

  const loadDetails = details.load;
  useEffect(() => {
    setView("details");
    if (scheduleId) void loadDetails(`/schedules/${encodeURIComponent(scheduleId)}`);
  }, [scheduleId, loadDetails]);

  const loaded = details.data?.schedule && details.data.schedule.id === scheduleId ? details.data : null;
  const s = loaded?.schedule;
  const loading =
    details.state === "loading" || (!loaded && scheduleId !== null && details.state === "idle" && !details.data);
  const status = s ? scheduleStatus(s, locale) : null;
  const note = status?.note ?? null;

  return (
    <Modal open={Boolean(scheduleId)} onOpenChange={(open) => !open && onClose()} title="Configure schedule">
      {!s && loading && <Spinner label="Loading schedule…" />}
      {!s && !loading && scheduleId && (
        <p className="py-6 text-center text-danger" role="alert">
          This schedule could not be loaded. It may have been deleted.
        </p>
      )}
      {s && view === "details" && (
        <div className="flex flex-col gap-4">
          <dl className="grid grid-cols-[8.5rem_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">Debtor</dt>
            <dd className="font-medium">
              {s.debtorName} <span className="break-all font-normal text-muted">({s.debtorEmail})</span>
            </dd>
            <dt className="text-muted">Outstanding</dt>
            <dd>
              <DebtorBalance debtor={s} show="owed" />
            </dd>
            <dt className="text-muted">Active strategy</dt>
            <dd>{strategyLabel(s.activeStrategy)}</dd>
            <dt className="text-muted">Preset</dt>
            <dd>{presetName(s.preset)}</dd>
            <dt className="text-muted">Frequency</dt>
            <dd>
              {describeFrequency(s.frequency, s)}
              {s.frequency !== "now" && s.frequency !== "due" && <span className="text-muted"> ({s.timeZone})</span>}
            </dd>
            <dt className="text-muted">Send as</dt>
            <dd>{s.organizationName ?? loaded.userName}</dd>
            <dt className="text-muted">Payment due</dt>
            <dd>{s.dueDate ?? "—"}</dd>
            <dt className="text-muted">State</dt>
            <dd>{status?.label}</dd>
            <dt className="text-muted">Next reminder</dt>
            <dd>{status?.nextRunAt != null ? formatDateTime(status.nextRunAt, timeZone, locale) : "—"}</dd>
            <dt className="text-muted">Emails sent</dt>
            <dd>{s.emailsSent}</dd>
          </dl>
          {note && (
            <p className="rounded-md border border-border bg-background p-3 text-sm" data-testid="schedule-state-note">
              {note}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            {(s.state === "ENABLED" || s.state === "DISABLED") && (
              <stateChanger.Form method="post" action="/schedules/actions">
                <input
                  type="hidden"
                  name="intent"
                  value={s.state === "ENABLED" ? SCHEDULE_INTENTS.pause : SCHEDULE_INTENTS.resume}
                />
                <input type="hidden" name="ids" value={s.id} />
                <SubmitButton variant="outline" busy={stateChanger.state !== "idle"}>
                  {s.state === "ENABLED" ? "Pause" : "Resume"}
                </SubmitButton>
              </stateChanger.Form>
            )}
            <Button variant="danger" onClick={() => setView("disable")}>
              Disable
            </Button>
            <Button onClick={() => setView("edit")}>Edit</Button>
          </div>
        </div>
      )}
      {s && view === "edit" && (
        <Suspense fallback={<Spinner label="Loading form…" />}>
          <ScheduleForm
            options={loaded}
            schedule={{
              id: s.id,
              debtorId: s.debtorId,
              debtor: { id: s.debtorId, fullName: s.debtorName, email: s.debtorEmail },
              organizationId: s.organizationId,
              preset: s.preset,
              frequency: s.frequency,
              dueDate: s.dueDate,
              cadenceSteps: s.cadenceSteps,
              cadenceRepeatDays: s.cadenceRepeatDays,
              sendHour: s.sendHour,
            }}
            onCancel={() => setView("details")}
            onDone={(data) => {
              notify(data.ok ? "success" : "error", data.message ?? SCHEDULE_SOMETHING_WRONG, area);
              if (data.ok) onClose();
            }}
          />
        </Suspense>
      )}
      {s && view === "disable" && (
        <ConfirmStep
          fetcher={deleter}
          action="/schedules/actions"
          intent={SCHEDULE_INTENTS.remove}
          id={s.id}
          message="Are you sure you want to disable this schedule? No further reminders will be sent."
          confirmLabel="Disable"
          onCancel={() => setView("details")}
        />
      )}
    </Modal>
  );
}
