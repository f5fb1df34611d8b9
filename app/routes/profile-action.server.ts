import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import { requireUser } from "~/auth/guard.server";
import { checkUserPassword, hasPassword, setPassword } from "~/auth/password.server";
import type { SessionUser } from "~/auth/session.server";
import { type Db, getDb } from "~/db/client.server";
import { intentOf, readForm, reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { type AppContext, getApp } from "~/lib/context.server";
import {
  IMAGE_TOO_LARGE,
  ImageRejected,
  MAX_IMAGE_BYTES,
  storeProfileImage,
  UNSUPPORTED_IMAGE,
} from "~/lib/images.server";
import { setProfileImage, updateProfileName } from "~/models/user.server";
import { SetPasswordSchema } from "~/schemas/auth";
import { ProfileNameSchema } from "~/schemas/profile";

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
  const user = requireUser(context, url);
  const app = getApp(context);
  // The photo may be 5 MB plus room for the multipart envelope; counted while the body streams in.
  const form = await readForm(request, {
    maxBytes: MAX_IMAGE_BYTES + 64 * 1024,
    tooLarge: { intent: "profile-photo", message: IMAGE_TOO_LARGE },
  });
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  const db = getDb(app.env.DB);
  switch (intent) {
    case "profile-name":
      return renameProfile(db, user, formData);
    case "profile-photo":
      return changePhoto(app, db, user, formData);
    case "set-password":
      return savePassword(db, user, formData);
    default:
      return reply(intent, { status: 400, message: SOMETHING_WRONG });
  }
}

async function renameProfile(db: Db, user: SessionUser, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: ProfileNameSchema });
  if (submission.status !== "success") return reply("profile-name", { status: 400, result: submission.reply() });
  await updateProfileName(db, user.id, submission.value.full_name);
  return reply("profile-name", { message: "Profile updated", result: submission.reply({ resetForm: true }) });
}

async function changePhoto({ env, ctx }: AppContext, db: Db, user: SessionUser, formData: FormData) {
  const file = formData.get("photo");
  if (!(file instanceof File) || file.size === 0) {
    return reply("profile-photo", { status: 400, message: UNSUPPORTED_IMAGE });
  }
  try {
    const key = await storeProfileImage(env, user.id, await file.arrayBuffer());
    const previous = await setProfileImage(db, user.id, key);
    if (previous) ctx.waitUntil(env.IMAGES.delete(previous));
  } catch (error) {
    if (error instanceof ImageRejected) return reply("profile-photo", { status: 400, message: error.message });
    throw error;
  }
  return reply("profile-photo", { message: "Photo updated" });
}

async function savePassword(db: Db, user: SessionUser, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: SetPasswordSchema });
  // Passwords are never sent back to the page.
  const hide = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
  if (submission.status !== "success") return reply("set-password", { status: 400, result: submission.reply(hide) });
  if (await hasPassword(db, user.id)) {
    const current = submission.value.currentPassword ?? "";
    if (!current || !(await checkUserPassword(db, user.id, current))) {
      const result = submission.reply({
        ...hide,
        fieldErrors: { currentPassword: ["The current password is not correct"] },
      });
      return reply("set-password", { status: 400, result });
    }
  }
  await setPassword(db, user.id, submission.value.newPassword);
  return reply("set-password", { message: PASSWORD_SAVED, result: submission.reply({ resetForm: true }) });
}
