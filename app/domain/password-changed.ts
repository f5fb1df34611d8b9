/** The notice after a password is set or changed, as the mail Worker takes it (its template renders it). */
export interface PasswordChangedEmailProps {
  /** When it happened, already written in the user's time zone ("Nov 21, 2026, 11:52 PM"). */
  changedAt: string;
  /** How many other sessions were signed out. */
  signedOut: number;
  /** The sign-in page, to take the account back with a magic link. */
  signInUrl: string;
}

export const passwordChangedSubject = "Your Dunly password was changed";
