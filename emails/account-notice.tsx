import { Heading, Text } from "@react-email/components";
import { type AccountNoticeKind, accountNoticeCopy } from "../app/domain/account-notice";
import { EmailButton, EmailLayout } from "./components/layout";

export interface AccountNoticeEmailProps {
  kind: AccountNoticeKind;
  date: string;
  actionUrl: string;
}

const text = { fontSize: 15, lineHeight: "22px", color: "#1f1f1f" } as const;

/** Dunly's e-mail to a user about their own plan (docs/decisions/019): the trial, a failed payment. */
export default function AccountNoticeEmail({ kind, date, actionUrl }: AccountNoticeEmailProps) {
  const { subject, headline, detail, action } = accountNoticeCopy(kind, date);
  return (
    <EmailLayout title={subject} preview={headline} footer="You get this e-mail about your own Dunly account.">
      <Heading as="h1" className="dunly-text" style={{ fontSize: 22, margin: "0 0 16px", color: "#1f1f1f" }}>
        {subject}
      </Heading>
      <Text className="dunly-text" style={text}>
        {headline}
      </Text>
      <Text className="dunly-text" style={text}>
        {detail}
      </Text>
      <EmailButton href={actionUrl}>{action}</EmailButton>
    </EmailLayout>
  );
}

AccountNoticeEmail.PreviewProps = {
  kind: "trial_ending",
  date: "29 November 2026",
  actionUrl: "http://localhost:5173/pricing",
} satisfies AccountNoticeEmailProps;
