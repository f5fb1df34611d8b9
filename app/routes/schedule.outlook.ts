import * as v from "valibot";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { stepLabel } from "~/domain/cadence";
import type { OutlookAnswer } from "~/domain/cadence-plan";
import { formatDate, formatWhen } from "~/domain/dates";
import { getPreset, templateName } from "~/domain/presets";
import { requestNumberLocale } from "~/platform/locale.server";
import { cadenceOutlook } from "~/reminders/index.server";
import { AccountCadenceSchema, cadenceOfInput } from "~/schemas/account-cadence";
import { FormIdSchema } from "~/schemas/ids";
import type { Route } from "./+types/schedule.outlook";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** The outlook's query, read as the cadence forms validate it (the account's cadence schema); null when any is not valid. */
function outlookRequest(url: URL) {
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  const debtorId = v.safeParse(FormIdSchema, get("debtor_id"));
  const cadence = v.safeParse(AccountCadenceSchema, {
    cadence_steps: get("cadence_steps"),
    send_hour: get("send_hour") ?? "10",
    after_last: get("after_last") ?? "end",
    repeat_days: get("repeat_days"),
  });
  const preset = getPreset(get("preset") ?? "FRIENDLY_REMINDER")?.id;
  if (!debtorId.success || !cadence.success || !preset) return null;
  return { debtorId: debtorId.output, preset, cadence: cadenceOfInput(cadence.output) };
}

/**
 * What a due-date cadence will really send the chosen debtor (the preview's "Coming e-mails"): the
 * next e-mails at their times in the debtor's zone, the invoices each carries at which step, and
 * the steps skipped because they had passed when the invoice joined. The cadence is the form's, as
 * typed, for a new schedule. Another user's debtor: 404.
 */
export async function loader({ context, url, request: http }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const request = outlookRequest(url);
  if (!request)
    return Response.json({ error: "Check the cadence's steps and hour." } satisfies OutlookAnswer, {
      status: 400,
      headers: NO_STORE,
    });
  const outlook = await cadenceOutlook(getDb(getApp(context).env.DB), user.id, request, Date.now());
  if (!outlook)
    return Response.json({ error: "No such debtor." } satisfies OutlookAnswer, { status: 404, headers: NO_STORE });
  const { timeZone } = outlook;
  const locale = requestNumberLocale(http, user);
  return Response.json(
    {
      timeZone,
      runs: outlook.runs.map((run) => ({
        at: run.at,
        date: run.date,
        when: formatWhen(run.at, timeZone, locale),
        template: run.template,
        templateName: templateName(run.template),
        tone: run.tone,
        lines: run.lines.map((l) => ({
          number: l.number,
          due: formatDate(l.dueOn, locale),
          step: l.kind === "repeat" ? `repeat, ${stepLabel(l.offset)}` : stepLabel(l.offset),
          late: l.late,
        })),
      })),
      skipped: outlook.skipped.map((s) => ({
        number: s.number,
        due: formatDate(s.dueOn, locale),
        step: stepLabel(s.offset),
        date: formatDate(s.date, locale),
      })),
    } satisfies OutlookAnswer,
    { headers: NO_STORE },
  );
}
