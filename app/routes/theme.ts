import { redirect } from "react-router";
import { readForm } from "~/platform/action-result.server";
import { safeRedirect } from "~/platform/redirect";
import { parseTheme, themeCookie } from "~/platform/theme";
import type { Route } from "./+types/theme";

/**
 * The theme switch as a plain form, for pages that send no module scripts (the landing page,
 * docs/decisions/026): sets the theme cookie and goes back to the page it was posted from. The
 * boot script reads the cookie before paint and the root renders it.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const theme = parseTheme(form.formData.get("theme"));
  if (!theme) return new Response("Unknown theme.", { status: 400 });
  return redirect(safeRedirect(form.formData.get("redirectTo")) ?? "/", {
    headers: { "Set-Cookie": themeCookie(theme), "Cache-Control": "no-store" },
  });
}

export async function loader() {
  return redirect("/");
}
