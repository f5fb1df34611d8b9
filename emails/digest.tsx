import { Heading, Link, Text } from "@react-email/components";
import { type DigestItem, digestSubject, noticeCopy } from "../app/domain/notice";
import { EmailLayout } from "./components/layout";

export interface DigestEmailProps {
  day: string;
  items: DigestItem[];
  total: number;
  settingsUrl: string;
}

const text = { fontSize: 15, lineHeight: "22px", color: "#1f1f1f" } as const;

/**
 * The daily digest: the last 24 hours' debtor
 * actions and delivery problems, one line each, newest first, each linking to the debtor's page.
 */
export default function DigestEmail({ day, items, total, settingsUrl }: DigestEmailProps) {
  const subject = digestSubject(total);
  const more = total - items.length;
  return (
    <EmailLayout
      title={subject}
      preview={`What your debtors did in the 24 hours to ${day}`}
      footer={`You get this e-mail because the daily digest is switched on in Settings → Info (${settingsUrl}).`}
    >
      <Heading as="h1" className="dunly-text" style={{ fontSize: 22, margin: "0 0 16px", color: "#1f1f1f" }}>
        {subject}
      </Heading>
      {items.map((item, i) => (
        // The list never changes once rendered: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: a static list
        <Text key={i} className="dunly-text" style={text}>
          <Link href={item.debtorUrl}>{noticeCopy(item.kind, item.debtorName).subject}</Link>
          {item.detail ? ` — ${item.detail}` : ""}
        </Text>
      ))}
      {more > 0 ? (
        <Text className="dunly-text" style={text}>
          and {more} more: see each debtor's page in Dunly.
        </Text>
      ) : null}
    </EmailLayout>
  );
}

DigestEmail.PreviewProps = {
  day: "2026-11-26",
  items: [
    {
      kind: "promised",
      debtorName: "Ana Ruiz",
      detail: "Promised to pay by 30 December 2026",
      debtorUrl: "http://localhost:5173/debtors/1",
    },
    { kind: "bounced", debtorName: "Bea Bounce", detail: "550 5.1.1", debtorUrl: "http://localhost:5173/debtors/2" },
  ],
  total: 2,
  settingsUrl: "http://localhost:5173/iam/info",
} satisfies DigestEmailProps;
