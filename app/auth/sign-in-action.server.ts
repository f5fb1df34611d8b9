import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import { getApp } from "~/auth/context.server";
import { getDb } from "~/db/client.server";
import { mail } from "~/mail/index.server";
import { readForm, reply } from "~/platform/action-result.server";
import { appOrigin } from "~/platform/config.server";
import { safeRedirect } from "~/platform/redirect";
import { SignInSchema } from "~/schemas/auth";
import { allowSignInEmail, clientKey, createLoginToken, MAGIC_LINK_TTL } from "./magic-link.server";

const SIGN_IN_SENT = "Please Check your email for the sign in link";
const SIGN_IN_LIMITED = "Too many sign-in e-mails were requested. Please wait a few minutes and try again.";
const SIGN_IN_FAILED = "We could not send the sign-in e-mail. Please try again.";

/**
 * The magic-link request behind the landing page and /404 forms. The answer is the same whether
 * or not an account exists for the address.
 */
export async function requestMagicLink(request: Request, context: Readonly<RouterContextProvider>) {
  const { env, config } = getApp(context);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const submission = parseWithValibot(formData, { schema: SignInSchema });
  if (submission.status !== "success") {
    return reply("sign-in", { status: 400, result: submission.reply() });
  }
  const db = getDb(env.DB);
  const email = submission.value.email.toLowerCase();
  // The end-to-end suite signs in many users from one address; it raises the per-client limit.
  if (!(await allowSignInEmail(db, email, clientKey(request), Date.now(), config.SIGNIN_LIMIT_PER_CLIENT))) {
    return reply("sign-in", { status: 429, message: SIGN_IN_LIMITED, result: submission.reply() });
  }
  const token = await createLoginToken(db, email, safeRedirect(submission.value.redirectTo));
  // The link's origin is APP_ORIGIN, never the Host header a client chose.
  const url = new URL("/auth/verify", appOrigin(config, request.url));
  url.searchParams.set("token", token);
  if (config.APP_ENV !== "production") console.log(`[dunly] sign-in link for ${email}: ${url.href}`);
  // Never resent by itself (a link is asked for again): a failure is said to the user.
  const sent = await mail.signInLink(env, { to: email, url: url.href, expiresInMinutes: MAGIC_LINK_TTL / 60_000 });
  if (!sent.ok) {
    return reply("sign-in", { status: 502, message: SIGN_IN_FAILED, result: submission.reply() });
  }
  return reply("sign-in", { message: SIGN_IN_SENT, result: submission.reply({ resetForm: true }) });
}
