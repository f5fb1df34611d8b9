/** Messages for the `error` query parameter that auth redirects carry back to the sign-in form. */
const messages: Record<string, string> = {
  "google-unavailable": "Google sign-in is not available on this server yet. Please use the magic link or a password.",
  "google-failed": "Google sign-in failed. Please try again.",
  "google-unverified": "Your Google account has no verified e-mail address. Please use the magic link instead.",
};

export function authErrorMessage(code: string | null) {
  return code ? (messages[code] ?? null) : null;
}
