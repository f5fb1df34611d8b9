import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "react-router";
import type { ActionResult } from "./action-result";
import { readFormWithin } from "./body-limit.server";
import { safeRedirect } from "./redirect";
import { flashToastCookie } from "./toast.server";

interface ReplyInit {
  /** 200 by default; 4xx and 5xx mean the intent did not happen (`ok: false`). */
  status?: number;
  /** Only where a refusal is still answered with 200 (a page that explains it, like a used sign-in link). */
  ok?: boolean;
  message?: string | null;
  result?: SubmissionResult<string[]>;
  count?: number;
  existing?: ActionResult["existing"];
}

/** The one way an action answers a form: an ActionResult with its HTTP status. */
export function reply(
  intent: string,
  { status = 200, ok = status < 400, message = null, result, count, existing }: ReplyInit = {},
) {
  const body: ActionResult = { intent, ok, message };
  if (result) body.result = result;
  if (count !== undefined) body.count = count;
  if (existing) body.existing = existing;
  return data(body, { status });
}

/**
 * After a success, a form that names a `redirectTo` (a same-site path) goes there and the message
 * follows as a toast; without one it gets the reply in place. Works the same with or without
 * JavaScript: a fetcher follows the redirect, a document post lands on the page.
 */
export function replyOrRedirect(formData: FormData, intent: string, init: ReplyInit & { message: string }) {
  const to = safeRedirect(formData.get("redirectTo"));
  if (!to || (init.status ?? 200) >= 400) return reply(intent, init);
  return redirect(to, { headers: { "Set-Cookie": flashToastCookie({ kind: "success", message: init.message }) } });
}

const FORM_UNREADABLE = "The form could not be read. Please reload the page and try again.";
const FORM_TOO_LARGE = "The form is too large.";

/**
 * The posted form, or the reply to answer instead of a 500: 400 for a body that is no form (a
 * broken multipart envelope), 413 past `maxBytes` (counted while streaming). Every action reads
 * its form with this.
 */
export async function readForm(
  request: Request,
  { maxBytes, tooLarge }: { maxBytes?: number; tooLarge?: { intent: string; message: string } } = {},
) {
  const read = await readFormWithin(request, maxBytes);
  if ("formData" in read) return read;
  if (read.error === "malformed") return { refused: reply("", { status: 400, message: FORM_UNREADABLE }) };
  return { refused: reply(tooLarge?.intent ?? "", { status: 413, message: tooLarge?.message ?? FORM_TOO_LARGE }) };
}

/** The intent field of a form post ('' when missing). */
export function intentOf(formData: FormData) {
  return String(formData.get("intent") ?? "");
}
