import { type ClaimAnswerMessage, claimAnswerSubject, claimAnswerText } from "../app/domain/claim-answer";
import { debtorMailText } from "../app/domain/debtor-mail-copy";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export type ClaimAnswerEmailProps = Omit<ClaimAnswerMessage, "to" | "replyTo">;

/** The debtor's e-mail after the user could not find the payment they said they made. */
export default function ClaimAnswerEmail(props: ClaimAnswerEmailProps) {
  const [hello, thanks, notFound, next] = claimAnswerText(props);
  const t = debtorMailText(props.language);
  return (
    <EmailLayout
      title={claimAnswerSubject(props)}
      preview={t("claimPreview", { senderName: props.senderName, claimed: props.claimed })}
      footer={t("claimFooter")}
      language={props.language}
      brand={props.brand}
    >
      <EmailHeading>{t("claimHeading")}</EmailHeading>
      <EmailText>{hello}</EmailText>
      <EmailText>{thanks}</EmailText>
      <EmailText>{notFound}</EmailText>
      <EmailText>{next}</EmailText>
      <EmailButton href={props.portalUrl}>{t("viewStatement")}</EmailButton>
    </EmailLayout>
  );
}

ClaimAnswerEmail.PreviewProps = {
  senderName: "Acme Ltd",
  debtorName: "Ana Ruiz",
  claimed: "€600.50 on 20 November 2026 (reference RF18 5390)",
  invoices: ["INV-7 (€600.50)"],
  portalUrl: "http://localhost:5173/d/key.sig",
} satisfies ClaimAnswerEmailProps;
