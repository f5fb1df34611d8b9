import { Link } from "@react-email/components";
import { type DigestItem, digestSubject, noticeCopy } from "../app/domain/notice";
import { EmailHeading, EmailLayout, EmailText } from "./components/layout";

export interface DigestEmailProps {
  day: string;
  items: DigestItem[];
  total: number;
  settingsUrl: string;
}

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
      <EmailHeading>{subject}</EmailHeading>
      {items.map((item, i) => (
        // The list never changes once rendered: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: a static list
        <EmailText key={i}>
          <Link href={item.debtorUrl}>{noticeCopy(item.kind, item.debtorName).subject}</Link>
          {item.detail ? ` — ${item.detail}` : ""}
        </EmailText>
      ))}
      {more > 0 ? <EmailText>and {more} more: see each debtor's page in Dunly.</EmailText> : null}
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
