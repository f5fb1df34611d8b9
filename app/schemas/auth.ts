import * as v from "valibot";
import { missingFieldMessage } from "./missing";

/** The landing page's magic-link form (docs/product-spec.md §5: 'Email is required' for a missing or bad address). */
const EMAIL_REQUIRED = "Email is required";
const PASSWORD_REQUIRED = "Please enter your password";

export const SignInSchema = v.object(
  {
    email: v.pipe(v.string(EMAIL_REQUIRED), v.trim(), v.email(EMAIL_REQUIRED), v.maxLength(254, EMAIL_REQUIRED)),
    redirectTo: v.optional(v.string()),
  },
  missingFieldMessage({ email: EMAIL_REQUIRED }),
);

export const PasswordSignInSchema = v.object(
  {
    email: v.pipe(v.string(EMAIL_REQUIRED), v.trim(), v.email(EMAIL_REQUIRED)),
    password: v.string(PASSWORD_REQUIRED),
    redirectTo: v.optional(v.string()),
  },
  missingFieldMessage({ email: EMAIL_REQUIRED, password: PASSWORD_REQUIRED }),
);

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
const REPEAT_PASSWORD = "Please repeat the new password";
const newPassword = v.pipe(
  v.string(PASSWORD_TOO_SHORT),
  v.minLength(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT),
  v.maxLength(200, "Password must be at most 200 characters"),
);

/** Setting or changing a password; `currentPassword` is required by the action when one exists. */
export const SetPasswordSchema = v.pipe(
  v.object(
    {
      currentPassword: v.optional(v.string()),
      newPassword,
      confirmPassword: v.string(REPEAT_PASSWORD),
    },
    missingFieldMessage({ newPassword: PASSWORD_TOO_SHORT, confirmPassword: REPEAT_PASSWORD }),
  ),
  v.forward(
    v.partialCheck(
      [["newPassword"], ["confirmPassword"]],
      (input) => input.newPassword === input.confirmPassword,
      "The passwords do not match",
    ),
    ["confirmPassword"],
  ),
);
