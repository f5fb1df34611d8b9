import * as v from "valibot";

/** The landing page's magic-link form (docs/product-spec.md §5: 'Email is required' for a missing or bad address). */
export const SignInSchema = v.object({
  email: v.pipe(
    v.string("Email is required"),
    v.trim(),
    v.email("Email is required"),
    v.maxLength(254, "Email is required"),
  ),
  redirectTo: v.optional(v.string()),
});

export const PasswordSignInSchema = v.object({
  email: v.pipe(v.string("Email is required"), v.trim(), v.email("Email is required")),
  password: v.string("Please enter your password"),
  redirectTo: v.optional(v.string()),
});

const PASSWORD_MIN_LENGTH = 8;
const newPassword = v.pipe(
  v.string(`Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
  v.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
  v.maxLength(200, "Password must be at most 200 characters"),
);

/** Setting or changing a password; `currentPassword` is required by the action when one exists. */
export const SetPasswordSchema = v.pipe(
  v.object({
    currentPassword: v.optional(v.string()),
    newPassword,
    confirmPassword: v.string("Please repeat the new password"),
  }),
  v.forward(
    v.partialCheck(
      [["newPassword"], ["confirmPassword"]],
      (input) => input.newPassword === input.confirmPassword,
      "The passwords do not match",
    ),
    ["confirmPassword"],
  ),
);
