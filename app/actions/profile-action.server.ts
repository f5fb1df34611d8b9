import { parseWithValibot } from "@conform-to/valibot";
import { type RouterContextProvider, redirectDocument } from "react-router";
import { ImageRejected, replaceProfileImage, startAccountDeletion, storeProfileImage } from "~/account/index.server";
import { type AppContext, getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import {
  checkUserPassword,
  clearSessionCookie,
  clientKey,
  hasPassword,
  invalidateOtherSessions,
  readSessionToken,
  type SessionUser,
  setDefaultCurrency,
  setNoticeSwitches,
  setPassword,
  setPaymentUrl,
  updateContactSettings,
  updateProfileName,
} from "~/auth/index.server";
import { type Db, getDb } from "~/db/client.server";
import { formatDateTime } from "~/domain/dates";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, UNSUPPORTED_IMAGE } from "~/domain/upload-limits";
import { sendRecorded } from "~/mail/index.server";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { appOrigin } from "~/platform/config.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { allowPasswordGuess, TOO_MANY_PASSWORD_GUESSES } from "~/platform/rate-limit.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { flashToastCookie } from "~/platform/toast.server";
import { SetPasswordSchema } from "~/schemas/auth";
import { ContactRulesSchema } from "~/schemas/contact-rules";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { ACCOUNT_DELETED, SOMETHING_WRONG } from "~/schemas/messages";
import {
  DELETE_MISMATCH_MESSAGE,
  DefaultCurrencySchema,
  DeleteAccountSchema,
  PaymentLinkSchema,
  ProfileNameSchema,
} from "~/schemas/profile";

export const PASSWORD_SAVED = "Password saved.";

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/**
 * The signed-in user's own profile: name, photo and password (the action of /iam/info). There is
 * no id to send: the profile is always the session's user.
 */
export async function profileAction({ context, request, url }: ActionArgs) {
  const user = await requireUser(context, url);
  const app = getApp(context);
  // The photo may be 5 MB plus room for the multipart envelope; counted while the body streams in.
  const form = await readForm(request, {
    maxBytes: MAX_IMAGE_BYTES + 64 * 1024,
    tooLarge: { intent: PROFILE_INTENTS.photo, message: IMAGE_TOO_LARGE },
  });
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  const db = getDb(app.env.DB);
  switch (intent) {
    case PROFILE_INTENTS.name:
      return renameProfile(db, user, formData);
    case PROFILE_INTENTS.photo:
      return changePhoto(app, user, formData);
    case PROFILE_INTENTS.contactRules:
      return saveContactRules(db, user, formData);
    case PROFILE_INTENTS.paymentLink:
      return savePaymentLink(db, user, formData);
    case PROFILE_INTENTS.defaultCurrency:
      return saveDefaultCurrency(db, user, formData);
    case PROFILE_INTENTS.notices:
      return saveNotices(db, user, formData);
    case PROFILE_INTENTS.password:
      return savePassword(app, db, user, request, formData);
    case PROFILE_INTENTS.deleteAccount:
      return removeAccount(app, user, url, formData);
    default:
      return reply(intent, { status: 400, message: SOMETHING_WRONG });
  }
}

async function renameProfile(db: Db, user: SessionUser, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: ProfileNameSchema });
  if (submission.status !== "success") return reply(PROFILE_INTENTS.name, { status: 400, result: submission.reply() });
  // A form without the field (an older page) leaves the business name as it was.
  const business = formData.has("business_name") ? submission.value.business_name || null : undefined;
  await updateProfileName(db, user.id, submission.value.full_name, business);
  return reply(PROFILE_INTENTS.name, { message: "Profile updated", result: submission.reply({ resetForm: true }) });
}

async function saveContactRules(db: Db, user: SessionUser, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: ContactRulesSchema });
  if (submission.status !== "success")
    return reply(PROFILE_INTENTS.contactRules, { status: 400, result: submission.reply() });
  const { start_hour, end_hour, max_per_week } = submission.value;
  await updateContactSettings(db, user.id, { startHour: start_hour, endHour: end_hour, maxPerWindow: max_per_week });
  return reply(PROFILE_INTENTS.contactRules, { message: "Sending rules saved.", result: submission.reply() });
}

/**
 * The user's notices: a checkbox each, sent only
 * when checked, so an unchecked box switches its kind off.
 */
async function saveNotices(db: Db, user: SessionUser, formData: FormData) {
  await setNoticeSwitches(db, user.id, {
    notifyDebtorActions: formData.get("notify_debtor_actions") === "on",
    notifyDeliveryProblems: formData.get("notify_delivery_problems") === "on",
    notifyScheduleEnds: formData.get("notify_schedule_ends") === "on",
    notifyDigest: formData.get("notify_digest") === "on",
  });
  return reply(PROFILE_INTENTS.notices, { message: "E-mail notices saved." });
}

/** The account's payment link: https only; empty clears it. */
async function savePaymentLink(db: Db, user: SessionUser, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: PaymentLinkSchema });
  if (submission.status !== "success")
    return reply(PROFILE_INTENTS.paymentLink, { status: 400, result: submission.reply() });
  const url = submission.value.payment_url ?? null;
  await setPaymentUrl(db, user.id, url);
  return reply(PROFILE_INTENTS.paymentLink, {
    message: url ? "Payment link saved." : "Payment link removed.",
    result: submission.reply(),
  });
}

/** The account's currency: new debtors' and CSV rows' unless given. */
async function saveDefaultCurrency(db: Db, user: SessionUser, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: DefaultCurrencySchema });
  if (submission.status !== "success")
    return reply(PROFILE_INTENTS.defaultCurrency, { status: 400, result: submission.reply() });
  await setDefaultCurrency(db, user.id, submission.value.default_currency, submission.value.number_locale);
  return reply(PROFILE_INTENTS.defaultCurrency, {
    message: "Currency and format saved.",
    result: submission.reply(),
  });
}

async function changePhoto({ env, ctx }: AppContext, user: SessionUser, formData: FormData) {
  const file = formData.get("photo");
  if (!(file instanceof File) || file.size === 0) {
    return reply(PROFILE_INTENTS.photo, { status: 400, message: UNSUPPORTED_IMAGE });
  }
  try {
    const key = await storeProfileImage(env, user.id, await file.arrayBuffer());
    await replaceProfileImage(env, ctx, user.id, key);
  } catch (error) {
    if (error instanceof ImageRejected) return reply(PROFILE_INTENTS.photo, { status: 400, message: error.message });
    throw error;
  }
  return reply(PROFILE_INTENTS.photo, { message: "Photo updated" });
}

async function savePassword(app: AppContext, db: Db, user: SessionUser, request: Request, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: SetPasswordSchema });
  // Passwords are never sent back to the page.
  const hide = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
  if (submission.status !== "success")
    return reply(PROFILE_INTENTS.password, { status: 400, result: submission.reply(hide) });
  if (await hasPassword(db, user.id)) {
    // Guessing the current password is limited like a password sign-in (per account and client).
    if (!(await allowPasswordGuess(db, clientKey(request), `password-user:${user.id}`))) {
      const result = submission.reply({ ...hide, fieldErrors: { currentPassword: [TOO_MANY_PASSWORD_GUESSES] } });
      return reply(PROFILE_INTENTS.password, { status: 429, result });
    }
    const current = submission.value.currentPassword ?? "";
    if (!current || !(await checkUserPassword(db, user.id, current))) {
      const result = submission.reply({
        ...hide,
        fieldErrors: { currentPassword: ["The current password is not correct"] },
      });
      return reply(PROFILE_INTENTS.password, { status: 400, result });
    }
  }
  await setPassword(db, user.id, submission.value.newPassword);
  // A new password locks out whoever else holds a session: only this browser stays signed in.
  const signedOut = await invalidateOtherSessions(db, user.id, readSessionToken(request));
  await notifyPasswordChanged(app.env, db, app.config, user, request, signedOut);
  return reply(PROFILE_INTENTS.password, { message: PASSWORD_SAVED, result: submission.reply({ resetForm: true }) });
}

/**
 * Tells the account's own address that its password changed, recorded before it is sent: one that
 * could not be sent is retried by the watchdog and shown in Settings → E-mails, never fatal here.
 */
async function notifyPasswordChanged(
  env: Env,
  db: Db,
  config: AppContext["config"],
  user: SessionUser,
  request: Request,
  signedOut: number,
) {
  const now = Date.now();
  await sendRecorded(env, db, {
    ownerId: user.id,
    key: `password-changed:${user.id}:${now}`,
    email: {
      kind: "password-changed",
      message: {
        to: user.email,
        changedAt: formatDateTime(now, requestTimeZone(request), requestNumberLocale(request, user)),
        signedOut,
        signInUrl: new URL("/#sign-in", appOrigin(config, request.url)).href,
      },
    },
  });
}

/**
 * Delete account: confirmed by typing the account's address
 * (without case or surrounding spaces). A wrong address is a field error and nothing is deleted.
 * Confirmed, the deletion starts and the answer comes at once: the account is marked deleting and
 * signed out everywhere, and a background job deletes the rest (app/account/delete.server.ts). The
 * browser lands on / with a toast.
 */
async function removeAccount({ env }: AppContext, user: SessionUser, url: URL, formData: FormData) {
  const intent = PROFILE_INTENTS.deleteAccount;
  const submission = parseWithValibot(formData, { schema: DeleteAccountSchema });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  if (submission.value.confirm_email.toLowerCase() !== user.email.toLowerCase()) {
    return reply(intent, {
      status: 400,
      result: submission.reply({ fieldErrors: { confirm_email: [DELETE_MISMATCH_MESSAGE] } }),
    });
  }
  await startAccountDeletion(env, user.id);
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(url));
  headers.append("Set-Cookie", flashToastCookie({ kind: "success", message: ACCOUNT_DELETED }));
  // A document redirect: the landing page is not hydrated (docs/decisions/026), and a client-side
  // navigation to it would run the root loader's request beside the document load, which could
  // read and clear the flashed message before the document asks for it.
  return redirectDocument("/", { headers });
}
