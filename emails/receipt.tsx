import { debtorMailText } from "../app/domain/debtor-mail-copy";
import { type ReceiptMessage, receiptSubject } from "../app/domain/receipt";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export type ReceiptEmailProps = Omit<ReceiptMessage, "to" | "replyTo">;

/** The debtor's receipt for a payment online (decisions/018): what was paid, to whom, when, and its reference. */
export default function ReceiptEmail(props: ReceiptEmailProps) {
  const subject = receiptSubject(props);
  const t = debtorMailText(props.language);
  const { senderName, amount, debtorName, paidOn } = props;
  return (
    <EmailLayout
      title={subject}
      preview={t("receiptPreview", { senderName, amount })}
      footer={t("receiptFooter")}
      language={props.language}
      brand={props.brand}
    >
      <EmailHeading>{t("receiptHeading")}</EmailHeading>
      <EmailText>{t("receiptBody", { debtorName, senderName, amount, paidOn })}</EmailText>
      <EmailText>{t("reference", { reference: props.reference })}</EmailText>
      <EmailButton href={props.portalUrl}>{t("viewStatement")}</EmailButton>
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
