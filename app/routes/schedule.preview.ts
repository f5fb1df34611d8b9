import { previewChoice, previewReminderProps } from "~/actions/test-send-action.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { withLogoOrigin } from "~/domain/brand";
import { parseStepText } from "~/domain/template-body";
import { mail } from "~/mail/index.server";
import { readForm } from "~/platform/action-result.server";
import { linkOrigin } from "~/platform/config.server";
import type { Route } from "./+types/schedule.preview";

/** The preview's headers: nothing in it can run script or load from elsewhere, and it is never kept. */
const PREVIEW_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; frame-ancestors 'self'; sandbox",
  "X-Content-Type-Options": "nosniff",
  // The sender's values (name, payment page) and a debtor's change with Settings and the
  // debtor: never kept.
  "Cache-Control": "private, no-store",
};

/**
 * The e-mail preview of the new-schedule page: the template rendered on the
 * server for a sandboxed iframe, showing what would be sent. With `debtor_id` (and
 * `organization_id`) it shows that debtor's real name and statement: their open invoices with
 * due dates, balances and days overdue, and the totals; for a
 * debtor without an open invoice, that no reminder would be sent. A debtor that is not the
 * signed-in user's is never shown: the sample debtor is, with its two-invoice statement. The
 * sender, their 'Pay now' page (none: no button) and whether more reminders follow (`frequency`)
 * are the real ones either way. Nothing in it can run script or load from elsewhere. Its opt-out
 * and "I've paid" links are samples: a click in the preview changes nothing. The mail Worker
 * renders it (`mail.renderReminderPreview`), so the app Worker carries no e-mail renderer; when it
 * cannot, the answer is an error status (the page says the preview failed).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  return previewFor(context, user.id, (name) => url.searchParams.get(name) ?? undefined);
}

/**
 * The same preview for a text being edited (Settings → E-mail texts, decisions/056): its subject and
 * body come in the form, too long for a query. A text with errors shows why there is no preview.
 */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  return previewFor(context, user.id, (name) => form.formData.get(name) ?? undefined);
}

/** A fixed sentence as the preview's page: no user data, nothing to escape. */
function notice(title: string, sentence: string) {
  return new Response(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family: Helvetica, Arial, sans-serif; padding: 24px"><p>${sentence}</p></body></html>`,
    { headers: PREVIEW_HEADERS },
  );
}

async function previewFor(context: Route.LoaderArgs["context"], ownerId: string, get: (name: string) => unknown) {
  const choice = previewChoice(get);
  if (!choice) return new Response("Unknown template", { status: 404 });
  if (choice.custom && !parseStepText(choice.custom).ok)
    return notice(
      "No preview",
      "The preview shows once the subject and text have no errors (each field says what is wrong).",
    );
  const { env, config } = getApp(context);
  const preview = await previewReminderProps(getDb(env.DB), ownerId, choice);
  if ("refused" in preview) return notice("No reminder", preview.refused);
  // The logo (docs/decisions/058) as the e-mail has it: absolute, from our own origin, which the
  // preview's policy lets it load (in development that origin is http).
  const origin = linkOrigin(config);
  const { brand } = preview.props;
  const props = { ...preview.props, brand: brand && withLogoOrigin(brand, origin) };
  const rendered = await mail.renderReminderPreview(env, props);
  const headers = {
    ...PREVIEW_HEADERS,
    "Content-Security-Policy": PREVIEW_HEADERS["Content-Security-Policy"].replace(
      "img-src data: https:",
      `img-src data: https: ${origin}`,
    ),
  };
  if (!rendered.ok) return new Response("The preview could not be rendered.", { status: 502, headers });
  return new Response(rendered.html, { headers });
}
