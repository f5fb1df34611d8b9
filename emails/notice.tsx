import { type NoticeKind, noticeCopy } from "../app/domain/notice";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export interface NoticeEmailProps {
  kind: NoticeKind;
  debtorName: string;
  /** What the event recorded ("Promised to pay by 30 December 2026"), or "". */
  detail: string;
  debtorUrl: string;
  settingsUrl: string;
}

/**
 * The notice to the user about one debtor event:
 * what happened, its detail, and a link to the debtor's page in the app.
 */
export default function NoticeEmail({ kind, debtorName, detail, debtorUrl, settingsUrl }: NoticeEmailProps) {
  const { subject, headline } = noticeCopy(kind, debtorName);
  return (
    <EmailLayout
      title={subject}
      preview={headline}
      footer={`You get this e-mail because it is switched on in Settings → Info (${settingsUrl}).`}
    >
      <EmailHeading>{subject}</EmailHeading>
      <EmailText>{headline}</EmailText>
      {detail ? <EmailText style={{ fontStyle: "italic" }}>{detail}</EmailText> : null}
      <EmailButton href={debtorUrl}>See {debtorName} in Dunly</EmailButton>
    </EmailLayout>
  );
}

NoticeEmail.PreviewProps = {
  kind: "promised",
  debtorName: "Ana Ruiz",
  detail: "Promised to pay by 30 December 2026",
  debtorUrl: "http://localhost:5173/debtors/1",
  settingsUrl: "http://localhost:5173/iam/info",
} satisfies NoticeEmailProps;
