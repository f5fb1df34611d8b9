import { Heading, Text } from "@react-email/components";
import { type NoticeKind, noticeCopy } from "../app/domain/notice";
import { EmailButton, EmailLayout } from "./components/layout";

export interface NoticeEmailProps {
  kind: NoticeKind;
  debtorName: string;
  /** What the event recorded ("Promised to pay by 30 December 2026"), or "". */
  detail: string;
  debtorUrl: string;
  settingsUrl: string;
}

const text = { fontSize: 15, lineHeight: "22px", color: "#1f1f1f" } as const;

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
      <Heading as="h1" className="dunly-text" style={{ fontSize: 22, margin: "0 0 16px", color: "#1f1f1f" }}>
        {subject}
      </Heading>
      <Text className="dunly-text" style={text}>
        {headline}
      </Text>
      {detail ? (
        <Text className="dunly-text" style={{ ...text, fontStyle: "italic" }}>
          {detail}
        </Text>
      ) : null}
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
