import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import type { Route } from "./+types/schedule.preview";
import { previewChoice, previewReminderProps } from "./test-send-action.server";

/**
 * The e-mail preview of the new-schedule page (docs/architecture.md §5): the template rendered on the
 * server for a sandboxed iframe, showing what would be sent (docs/architecture.md §13). With `debtor_id` (and
 * `organization_id`) it shows that debtor's real name, outstanding amount, currency and invoice
 * number (docs/architecture.md §10); a debtor that is not the signed-in user's is never shown: the sample
 * debtor is, with no invoice number. The sender, their 'Pay now' page (none: no button), the chosen
 * `due_date` (none: no due date) and whether more reminders follow (`frequency`) are the real ones
 * either way. Nothing in it can run script or load from elsewhere. Its opt-out and "I've paid" links
 * are samples: a click in the preview changes nothing. The mail Worker renders it
 * (`MAILER.renderReminderPreview`), so the app Worker carries no e-mail renderer.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const choice = previewChoice((name) => url.searchParams.get(name) ?? undefined);
  if (!choice) return new Response("Unknown template", { status: 404 });
  const { env } = getApp(context);
  const props = await previewReminderProps(getDb(env.DB), user.id, choice);
  const { html } = await env.MAILER.renderReminderPreview(props);
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; frame-ancestors 'self'; sandbox",
      "X-Content-Type-Options": "nosniff",
      // The sender's values (name, payment page) and a debtor's change with Settings and the
      // debtor: never kept.
      "Cache-Control": "private, no-store",
    },
  });
}
