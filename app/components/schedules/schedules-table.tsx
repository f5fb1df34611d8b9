import { Settings2 } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { BulkSendButton } from "~/components/bulk-send-button";
import { PeriodOptions } from "~/components/period-options";
import type { ToastArea } from "~/components/toast";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { SelectAllCheckbox } from "~/components/ui/select-all-checkbox";
import { formatMoney, outstandingCents } from "~/domain/money";
import { toggleAll, toggleOne } from "~/lib/selection";
import type { ScheduleListRow } from "~/models/schedule.server";
import { formatInstant, STATE_LABELS, scheduleName } from "./format";
import { ConfigureScheduleModal } from "./schedule-modals";

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
>;

function StateBadge({ state }: { state: string }) {
  return (
    <Badge tone={state === "ENABLED" ? "good" : state === "COMPLETED" ? "neutral" : "bad"}>
      {STATE_LABELS[state] ?? state}
    </Badge>
  );
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
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [configuringId, setConfiguringId] = useState<string | null>(null);
  const [, setSearchParams] = useSearchParams();
  const ids = schedules.map((s) => s.id);
  const selectedIds = ids.filter((id) => selected.has(id));
  const someSelected = selectedIds.length > 0;
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const configure = (id: string) => setConfiguringId((current) => (current === id ? null : id));

  return (
    <section aria-labelledby="schedules-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <SelectAllCheckbox
            label="Select all schedules"
            total={ids.length}
            selectedCount={selectedIds.length}
            onToggle={() => setSelected((s) => toggleAll(s, ids))}
          />
          <Heading id="schedules-heading" className="text-xl font-bold">
            Scheduled reminders
          </Heading>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label className="sr-only" htmlFor="schedules-period">
            Period
          </label>
          <select
            id="schedules-period"
            className="h-10 rounded-md border border-border bg-background px-3 text-sm"
            value={period}
            onChange={(event) =>
              setSearchParams(
                (params) => {
                  if (event.target.value) params.set("period", event.target.value);
                  else params.delete("period");
                  return params;
                },
                { replace: true, preventScrollReset: true },
              )
            }
          >
            <PeriodOptions />
          </select>
          {someSelected ? (
            <BulkSendButton
              intent="schedule-send-now"
              label="Send next reminder now"
              ids={selectedIds}
              area={area}
              onDone={() => setSelected(new Set())}
            />
          ) : (
            <Button asChild>
              <Link to="/schedule">Schedule</Link>
            </Button>
          )}
        </div>
      </div>

      {schedules.length === 0 ? (
        <p className="py-8 text-center text-muted">No schedules found</p>
      ) : (
        <>
          <table className="hidden w-full text-left text-sm md:table">
            <thead className="border-b border-border text-muted">
              <tr>
                <th className="w-8 py-2">
                  <span className="sr-only">Selected</span>
                </th>
                <th className="py-2">Name</th>
                <th className="py-2">Created At</th>
                <th className="py-2">
                  <span className="sr-only">Configure</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {schedules.map((s) => (
                <tr key={s.id} className="border-b border-border last:border-0">
                  <td className="py-3">
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-[var(--primary)]"
                      aria-label={`Select ${scheduleName(s)}`}
                      checked={selected.has(s.id)}
                      onChange={() => setSelected((set) => toggleOne(set, s.id))}
                    />
                  </td>
                  <td className="py-3">
                    <div className="font-semibold">{scheduleName(s)}</div>
                    <div className="flex flex-wrap items-center gap-2 text-muted">
                      <StateBadge state={s.state} />
                      {s.state === "ENABLED" && s.nextRunAt != null && (
                        <span>Next: {formatInstant(s.nextRunAt, timeZone)}</span>
                      )}
                    </div>
                  </td>
                  <td className="py-3">{formatInstant(s.createdAt, timeZone)}</td>
                  <td className="py-3 text-right">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => configure(s.id)}
                      aria-label={`Configure ${scheduleName(s)}`}
                    >
                      <Settings2 className="h-4 w-4" aria-hidden /> Configure
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="flex flex-col gap-3 md:hidden" aria-label="Scheduled reminders">
            {schedules.map((s) => (
              <li key={s.id} className="rounded-lg border border-border bg-background p-4">
                <div className="flex items-start gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 h-4 w-4 accent-[var(--primary)]"
                    aria-label={`Select ${scheduleName(s)}`}
                    checked={selected.has(s.id)}
                    onChange={() => setSelected((set) => toggleOne(set, s.id))}
                  />
                  <div className="min-w-0 flex-1">
                    <div className="font-semibold">{scheduleName(s)}</div>
                    <div className="mt-1">
                      <StateBadge state={s.state} />
                    </div>
                    <dl className="mt-2 grid grid-cols-2 gap-1 text-sm">
                      <dt className="text-muted">Emails sent</dt>
                      <dd>{s.emailsSent}</dd>
                      <dt className="text-muted">Total debt</dt>
                      <dd>{formatMoney(outstandingCents(s), s.currency)}</dd>
                      <dt className="text-muted">Created At</dt>
                      <dd>{formatInstant(s.createdAt, timeZone)}</dd>
                    </dl>
                  </div>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="mt-3 w-full"
                  onClick={() => configure(s.id)}
                  aria-label={`Configure ${scheduleName(s)}`}
                >
                  <Settings2 className="h-4 w-4" aria-hidden /> Configure
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfigureScheduleModal
        scheduleId={configuringId}
        onClose={() => setConfiguringId(null)}
        area={area}
        timeZone={timeZone}
      />
    </section>
  );
}
