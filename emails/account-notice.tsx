import { type AccountNoticeKind, accountNoticeCopy } from "../app/domain/account-notice";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export interface AccountNoticeEmailProps {
  kind: AccountNoticeKind;
  date: string;
  actionUrl: string;
  about?: string;
}

/** Dunly's e-mail to a user about their own account: the trial, a failed payment (decisions/019), the sending domain (059), the accounting tool (060). */
export default function AccountNoticeEmail({ kind, date, actionUrl, about }: AccountNoticeEmailProps) {
  const { subject, headline, detail, action } = accountNoticeCopy(kind, date, about);
  return (
    <EmailLayout title={subject} preview={headline} footer="You get this e-mail about your own Dunly account.">
      <EmailHeading>{subject}</EmailHeading>
      <EmailText>{headline}</EmailText>
      <EmailText>{detail}</EmailText>
      <EmailButton href={actionUrl}>{action}</EmailButton>
    </EmailLayout>
  );
}

AccountNoticeEmail.PreviewProps = {
  kind: "trial_ending",
  date: "29 November 2026",
  actionUrl: "http://localhost:5173/pricing",
} satisfies AccountNoticeEmailProps;
