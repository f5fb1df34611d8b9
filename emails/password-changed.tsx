import { type PasswordChangedEmailProps, passwordChangedSubject } from "../app/domain/password-changed";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export { type PasswordChangedEmailProps, passwordChangedSubject };

/** The notice after a password is set or changed: when, what it did, and what to do if it was not you. */
export default function PasswordChangedEmail({ changedAt, signedOut, signInUrl }: PasswordChangedEmailProps) {
  const others =
    signedOut === 0
      ? "No other device was signed in."
      : `${signedOut} other ${signedOut === 1 ? "session was" : "sessions were"} signed out.`;
  return (
    <EmailLayout
      title={passwordChangedSubject}
      preview="The password of your Dunly account was changed"
      footer="You get this e-mail whenever the password of your Dunly account changes."
    >
      <EmailHeading>Your password was changed</EmailHeading>
      <EmailText>
        The password of your Dunly account was changed on {changedAt}. {others}
      </EmailText>
      <EmailText>
        If this was you, there is nothing to do. If it was not, sign in with a link sent to this address and set a new
        password in Settings: that signs out every other device.
      </EmailText>
      <EmailButton href={signInUrl}>Sign in to Dunly</EmailButton>
    </EmailLayout>
  );
}

PasswordChangedEmail.PreviewProps = {
  changedAt: "Nov 21, 2026, 11:52 PM",
  signedOut: 2,
  signInUrl: "http://localhost:5173/#sign-in",
} satisfies PasswordChangedEmailProps;
