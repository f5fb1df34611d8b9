import { requireUser } from "~/auth/guard.server";
import { isTemplateId } from "~/domain/presets";
import { toTone } from "~/domain/strategies";
import { REMINDER_PREVIEW_SAMPLE, renderReminder } from "../../emails/render-reminder";
import type { Route } from "./+types/schedule.preview";

/**
 * The e-mail preview of the new-schedule page (docs/architecture.md §5): the template rendered on the server
 * with sample values, for a sandboxed iframe. Nothing in it can run script or load from elsewhere.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url);
  const template = url.searchParams.get("template") ?? "";
  const tone = toTone(Number(url.searchParams.get("tone")));
  if (!isTemplateId(template)) return new Response("Unknown template", { status: 404 });
  const { html } = await renderReminder({ ...REMINDER_PREVIEW_SAMPLE, template, tone });
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; frame-ancestors 'self'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=300",
    },
  });
}
