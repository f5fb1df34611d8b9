import { type ReceiptMessage, receiptSubject } from "../app/domain/receipt";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export type ReceiptEmailProps = Omit<ReceiptMessage, "to" | "replyTo">;

/** The debtor's receipt for a payment online (decisions/018): what was paid, to whom, when, and its reference. */
export default function ReceiptEmail(props: ReceiptEmailProps) {
  const subject = receiptSubject(props);
  return (
    <EmailLayout
      title={subject}
      preview={`Thank you: ${props.senderName} has received ${props.amount}.`}
      brand={props.brand}
      footer="You get this e-mail because you paid online. Keep it for your records."
    >
      <EmailHeading>Payment received</EmailHeading>
      <EmailText>
        {`Hello ${props.debtorName}, thank you: ${props.senderName} has received your payment of ${props.amount} on ${props.paidOn}.`}
      </EmailText>
      <EmailText>{`Reference: ${props.reference}`}</EmailText>
      <EmailButton href={props.portalUrl}>View your statement</EmailButton>
    </EmailLayout>
  );
}

ReceiptEmail.PreviewProps = {
  senderName: "Acme Ltd",
  debtorName: "Ana Ruiz",
  amount: "€42.00",
  paidOn: "26 November 2026",
  reference: "pi_123",
  portalUrl: "http://localhost:5173/d/key.sig",
} satisfies ReceiptEmailProps;
