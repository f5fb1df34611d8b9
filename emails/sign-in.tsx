import { Link, Text } from "@react-email/components";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export interface SignInEmailProps {
  url: string;
  expiresInMinutes: number;
}

export const signInSubject = "Your Dunly sign-in link";

/** The magic-link e-mail: one button, the raw link as a fallback, and when it expires. */
export default function SignInEmail({ url, expiresInMinutes }: SignInEmailProps) {
  return (
    <EmailLayout
      title={signInSubject}
      preview="Sign in to Dunly with this link"
      footer="If you did not ask to sign in to Dunly, you can ignore this e-mail; nobody can sign in without the link."
    >
      <EmailHeading>Sign in to Dunly</EmailHeading>
      <EmailText>Press the button to sign in. The link works once and expires in {expiresInMinutes} minutes.</EmailText>
      <EmailButton href={url}>Sign in to Dunly</EmailButton>
      <Text className="dunly-muted" style={{ fontSize: 13, lineHeight: "20px", color: "#555555", marginTop: 24 }}>
        Or paste this link into your browser:{" "}
        <Link href={url} className="dunly-link" style={{ color: "#6d28d9" }}>
          {url}
        </Link>
      </Text>
    </EmailLayout>
  );
}

SignInEmail.PreviewProps = {
  url: "http://localhost:5173/auth/verify?token=example",
  expiresInMinutes: 15,
} satisfies SignInEmailProps;
