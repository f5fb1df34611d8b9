import { Heading, Text } from "@react-email/components";
import { type ReceiptMessage, receiptSubject } from "../app/domain/receipt";
import { EmailButton, EmailLayout } from "./components/layout";

export type ReceiptEmailProps = Omit<ReceiptMessage, "to" | "replyTo">;

const text = { fontSize: 15, lineHeight: "22px", color: "#1f1f1f" } as const;

/** The debtor's receipt for a payment online (decisions/018): what was paid, to whom, when, and its reference. */
export default function ReceiptEmail(props: ReceiptEmailProps) {
  const subject = receiptSubject(props);
  return (
    <EmailLayout
      title={subject}
      preview={`Thank you: ${props.senderName} has received ${props.amount}.`}
      footer="You get this e-mail because you paid online. Keep it for your records."
    >
      <Heading as="h1" className="dunly-text" style={{ fontSize: 22, margin: "0 0 16px", color: "#1f1f1f" }}>
        Payment received
      </Heading>
      <Text className="dunly-text" style={text}>
        {`Hello ${props.debtorName}, thank you: ${props.senderName} has received your payment of ${props.amount} on ${props.paidOn}.`}
      </Text>
      <Text className="dunly-text" style={text}>
        {`Reference: ${props.reference}`}
      </Text>
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
