import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { stepLabel } from "~/domain/cadence";
import { outlookRequest } from "~/domain/outlook";
import { templateName } from "~/domain/presets";
import { formatCalendarDate, formatRunTime } from "~/domain/time-zone";
import { cadenceOutlook } from "~/reminders/index.server";
import type { Route } from "./+types/schedule.outlook";

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * What a due-date cadence will really send the chosen debtor (the preview's "Coming e-mails"): the
 * next e-mails at their times in the debtor's zone, the invoices each carries at which step, and
 * the steps skipped because they had passed when the invoice joined. The cadence is the form's, as
 * typed; an edited schedule's past e-mails count (`schedule_id`). Another user's debtor: 404.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const request = outlookRequest((name) => url.searchParams.get(name));
  if (!request)
    return Response.json({ error: "Check the cadence's steps and hour." }, { status: 400, headers: NO_STORE });
  const outlook = await cadenceOutlook(getDb(getApp(context).env.DB), user.id, request, Date.now());
  if (!outlook) return Response.json({ error: "No such debtor." }, { status: 404, headers: NO_STORE });
  const { timeZone } = outlook;
  return Response.json(
    {
      timeZone,
      runs: outlook.runs.map((run) => ({
        at: run.at,
        date: run.date,
        when: formatRunTime(run.at, timeZone),
        template: run.template,
        templateName: templateName(run.template),
        lines: run.lines.map((l) => ({
          number: l.number,
          due: formatCalendarDate(l.dueOn),
          step: l.kind === "repeat" ? `repeat, ${stepLabel(l.offset)}` : stepLabel(l.offset),
          late: l.late,
        })),
      })),
      skipped: outlook.skipped.map((s) => ({
        number: s.number,
        due: formatCalendarDate(s.dueOn),
        step: stepLabel(s.offset),
        date: formatCalendarDate(s.date),
      })),
    },
    { headers: NO_STORE },
  );
}

export type OutlookAnswer =
  | { error: string }
  | {
      timeZone: string;
      runs: {
        at: number;
        date: string;
        when: string;
        template: string;
        templateName: string;
        lines: { number: string | null; due: string; step: string; late: boolean }[];
      }[];
      skipped: { number: string | null; due: string; step: string; date: string }[];
    };
