import { Suspense, useState } from "react";
import { Link } from "react-router";
import { DebtorBalance } from "~/components/debtors/debtor-balance";
import { SelectableTable } from "~/components/lists/selectable-table";
import { useSetQueryParam } from "~/components/lists/use-set-query-param";
import { notOnServer, onDemand } from "~/components/on-demand";
import { PeriodSelect } from "~/components/period-options";
import type { ToastArea } from "~/components/toast";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { formatDateTime } from "~/domain/dates";
import { type ScheduleStatus, scheduleStatus } from "~/domain/schedule-status";
import type { ScheduleListRow } from "~/reminders/index.server";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { useLocale } from "~/ui/root-data";
import { scheduleName } from "./format";

// 'Configure schedule' (Radix's dialog, the details, the form) is a chunk of its own, fetched on
// first use (hover or focus of a Configure button starts it).
const configureModal = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("./schedule-modals").then((m) => m.ConfigureScheduleModal),
);

export type ScheduleView = Pick<
  ScheduleListRow,
  | "id"
  | "state"
  | "preset"
  | "frequency"
  | "createdAt"
  | "nextRunAt"
  | "debtorName"
  | "debtorEmail"
  | "debtCents"
  | "paidCents"
  | "currency"
  | "emailsSent"
  | "waiting"
  | "stoppedReason"
  | "debtorStatus"
  | "debtorPromisedOn"
> & {
  /** What a due-date schedule's next e-mail carries ("Final Notice for INV-101"). */
  nextWhat?: string | null;
};

const STATUS_TONES = { running: "good", held: "warn", paused: "warn", stopped: "neutral" } as const;

/** The schedule's state as the lifecycle left it (app/domain/schedule-status.ts). */
export function StatusBadge({ status }: { status: ScheduleStatus }) {
  return <Badge tone={STATUS_TONES[status.kind]}>{status.label}</Badge>;
}

/**
 * The scheduled reminders table (docs/product-spec.md §2): heading, 'Schedule' (hidden while any is selected),
 * select-all, the period dropdown, rows with name, state and creation date, a Configure button per
 * row, and cards with the real e-mail count and debt on narrow screens.
 */
export function SchedulesTable({
  schedules,
  area,
  timeZone,
  headingLevel = 2,
  period,
}: {
  schedules: ScheduleView[];
  area: ToastArea;
  timeZone: string;
  headingLevel?: 1 | 2;
  /** The selected period ('' = all time); the dropdown writes it to the `period` query parameter. */
  period: string;
}) {
  const [configuringId, setConfiguringId] = useState<string | null>(null);
  // Once opened the modal stays mounted (closing animates, the next opens at once).
  const [modalUsed, setModalUsed] = useState(false);
  if (!modalUsed && configuringId) setModalUsed(true);
  const setQueryParam = useSetQueryParam();
  const locale = useLocale();
  const created = (s: ScheduleView) => formatDateTime(s.createdAt, timeZone, locale);

  return (
    <SelectableTable
      headingId="schedules-heading"
      heading="Scheduled reminders"
      headingLevel={headingLevel}
      selectAllLabel="Select all schedules"
      items={schedules}
      idOf={(s) => s.id}
      nameOf={scheduleName}
      filter={
        <PeriodSelect
          id="schedules-period"
          hideLabel
          value={period}
          onCommit={(value) => setQueryParam("period", value)}
        />
      }
      createAction={
        <Button asChild>
          <Link to="/schedule">Schedule</Link>
        </Button>
      }
      bulk={{ intent: SCHEDULE_INTENTS.sendNow, label: "Send next reminder now" }}
      area={area}
      emptyText="No schedules found"
      // The spec's columns are Name, Created At and the configure action; the e-mail count and the
      // debt are facts of the phone cards.
      columns={[
        { label: "Emails sent", value: (s) => s.emailsSent, cardOnly: true },
        { label: "Total debt", value: (s) => <DebtorBalance debtor={s} show="owed" />, cardOnly: true },
        { label: "Created At", value: created },
      ]}
      detail={(s) => {
        const status = scheduleStatus(s, locale);
        return (
          <div className="flex flex-wrap items-center gap-2 text-muted">
            <StatusBadge status={status} />
            {status.nextRunAt != null && (
              <span>{`Next: ${formatDateTime(status.nextRunAt, timeZone, locale)}${s.nextWhat ? `, ${s.nextWhat}` : ""}`}</span>
            )}
            {status.kind !== "running" && status.kind !== "paused" && (
              <span className="w-full text-xs">{status.note}</span>
            )}
          </div>
        );
      }}
      onConfigure={(id) => setConfiguringId((current) => (current === id ? null : id))}
      onConfigureIntent={configureModal.preload}
    >
      {(modalUsed || configuringId) && (
        <Suspense fallback={null}>
          <configureModal.Lazy
            scheduleId={configuringId}
            onClose={() => setConfiguringId(null)}
            area={area}
            timeZone={timeZone}
          />
        </Suspense>
      )}
    </SelectableTable>
  );
}
