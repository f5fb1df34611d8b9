import { quoteText, type ReplyCopyMessage, replyCopySubject } from "../app/domain/reply-copy";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export type ReplyCopyEmailProps = Omit<ReplyCopyMessage, "to">;

/**
 * The copy of a debtor's reply to the user (docs/decisions/020-inbound-replies.md): the reply quoted
 * as plain text (React escapes it: nothing the debtor wrote is rendered as HTML), its attachments'
 * names, and the link to handle it. Answering this e-mail writes to the debtor (Reply-To).
 */
export default function ReplyCopyEmail(props: ReplyCopyEmailProps) {
  const subject = replyCopySubject(props);
  return (
    <EmailLayout
      title={subject}
      preview={`${props.debtorName} replied to your reminder`}
      footer="Reply to this e-mail to answer the debtor from your own mailbox. Reminders to them are held until you handle the reply in Dunly."
    >
      <EmailHeading>{subject}</EmailHeading>
      <EmailText>
        From {props.from}. Reminders to {props.debtorName} are held until you resume them, record a payment or mark the
        reply handled.
      </EmailText>
      <EmailText style={{ whiteSpace: "pre-wrap", fontFamily: "monospace" }}>
        {quoteText(props.text || "(no text)")}
      </EmailText>
      {props.attachments.length > 0 ? (
        <EmailText>
          Attachments (not forwarded): {props.attachments.map((a) => `${a.name} (${a.size} bytes)`).join(", ")}
        </EmailText>
      ) : null}
      <EmailButton href={props.debtorUrl}>Handle the reply in Dunly</EmailButton>
    </EmailLayout>
  );
}

ReplyCopyEmail.PreviewProps = {
  debtorName: "Ana Ruiz",
  debtorEmail: "ana@example.com",
  from: "ana@example.com",
  subject: "Re: Invoice INV-7 is overdue",
  text: "I paid yesterday; the transfer should arrive by Friday.",
  attachments: [],
  debtorUrl: "http://localhost:5173/debtors/1",
} satisfies ReplyCopyEmailProps;
