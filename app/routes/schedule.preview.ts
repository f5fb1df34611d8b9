import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import type { ReminderEmailProps } from "../../emails/reminder";
import { REMINDER_SAMPLE } from "../../emails/reminder-sample";
import type { Route } from "./+types/schedule.preview";
import { debtorReminderValues, previewChoice } from "./test-send-action.server";

/**
 * The e-mail preview of the new-schedule page (docs/architecture.md §5): the template rendered on the
 * server for a sandboxed iframe. With `debtor_id` (and `organization_id`, `due_date`) it shows that
 * debtor's real name, outstanding amount, currency and the sender (issue 11, item 5); a debtor that
 * is not the signed-in user's is never shown: the sample values are. Nothing in it can run script
 * or load from elsewhere. Its links stay the sample's: a click in the preview changes nothing. The mail
 * Worker renders it (`MAILER.renderReminderPreview`), so the app Worker carries no e-mail renderer.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const choice = previewChoice((name) => url.searchParams.get(name) ?? undefined);
  if (!choice) return new Response("Unknown template", { status: 404 });
  const { env } = getApp(context);
  const values = await debtorReminderValues(getDb(env.DB), user.id, choice);
  // What would be sent: the chosen debtor's values, or the sample's; the chosen due date and
  // whether more reminders follow (the frequency) either way.
  const props: ReminderEmailProps = values
    ? { ...REMINDER_SAMPLE, ...values.props }
    : {
        ...REMINDER_SAMPLE,
        template: choice.template,
        tone: choice.tone,
        dueDate: choice.dueDate ?? REMINDER_SAMPLE.dueDate,
        repeats: choice.repeats,
      };
  const { html } = await env.MAILER.renderReminderPreview(props);
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; frame-ancestors 'self'; sandbox",
      "X-Content-Type-Options": "nosniff",
      // A debtor's values change when the debtor does: never kept.
      "Cache-Control": values ? "private, no-store" : "private, max-age=300",
    },
  });
}
