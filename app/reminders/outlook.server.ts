import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors } from "~/db/schema";
import type { Cadence } from "~/domain/cadence";
import { type CadenceOutlook, describeRun, planCadence, runOn } from "~/domain/cadence-plan";
import { cadencePlanOf, parseOpenInvoices } from "~/domain/occurrence";
import type { PresetId } from "~/domain/presets";
import { safeTimeZone } from "~/domain/time-zone";
import { openInvoicesSql } from "./statement.server";

/** How many coming e-mails the preview lists. */
export const OUTLOOK_RUNS = 5;

/**
 * What a due-date cadence will send the owner's debtor from `now` on, as a new schedule (the
 * preview's list): the next e-mails with the invoices each carries, and the steps skipped because
 * they already passed. Null when the debtor is not the owner's.
 */
export async function cadenceOutlook(
  db: Db,
  ownerId: string,
  input: { debtorId: number; cadence: Cadence; preset: PresetId },
  now: number,
): Promise<(CadenceOutlook & { timeZone: string }) | null> {
  const debtor = await db
    .select({ timeZone: debtors.timeZone, openInvoices: openInvoicesSql() })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, input.debtorId)))
    .get();
  if (!debtor) return null;
  const timeZone = safeTimeZone(debtor.timeZone);
  const outlook = planCadence(
    {
      cadence: input.cadence,
      preset: input.preset,
      invoices: parseOpenInvoices(debtor.openInvoices),
      lastRunAt: null,
      now,
      timeZone,
    },
    OUTLOOK_RUNS,
  );
  return { ...outlook, timeZone };
}

/** A schedules list row as read with its cadence, its debtor's zone and open invoices. */
interface NextRunRow {
  frequency: string;
  preset: string;
  nextRunAt: number | null;
  lastRunAt: number | null;
  coveredAt: number | null;
  cadenceSteps: string | null;
  cadenceRepeatDays: number | null;
  cadenceVoices?: string | null;
  sendHour: number | null;
  debtorTimeZone: string | null;
  openInvoices: string | null;
}

/**
 * "Final Notice for INV-101 and INV-107": what a running due-date schedule's next e-mail carries,
 * as the engine will send it at its next run; null for other schedules or when no run is planned.
 */
export function nextRunWhat(row: NextRunRow): string | null {
  if (row.frequency !== "due" || row.nextRunAt === null) return null;
  const plan = cadencePlanOf(row, row.debtorTimeZone, parseOpenInvoices(row.openInvoices));
  const run = runOn(
    {
      cadence: plan,
      preset: row.preset as PresetId,
      invoices: plan.invoices,
      lastRunAt: row.coveredAt ?? row.lastRunAt,
      timeZone: plan.timeZone,
    },
    row.nextRunAt,
  );
  return run ? describeRun(run) : null;
}

/** The list rows with what each one's next e-mail carries, without the invoices read for it. */
export function withNextRunWhat<R extends NextRunRow>(
  rows: R[],
): (Omit<R, "openInvoices"> & { nextWhat: string | null })[] {
  return rows.map(({ openInvoices, ...row }) => ({ ...row, nextWhat: nextRunWhat({ ...row, openInvoices }) }));
}
