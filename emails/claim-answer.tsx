import { type ClaimAnswerMessage, claimAnswerSubject, claimAnswerText } from "../app/domain/claim-answer";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export type ClaimAnswerEmailProps = Omit<ClaimAnswerMessage, "to" | "replyTo">;

/** The debtor's e-mail after the user could not find the payment they said they made. */
export default function ClaimAnswerEmail(props: ClaimAnswerEmailProps) {
  const [hello, thanks, notFound, next] = claimAnswerText(props);
  return (
    <EmailLayout
      title={claimAnswerSubject(props)}
      preview={`${props.senderName} has not found your payment of ${props.claimed} yet.`}
      brand={props.brand}
      footer="You get this e-mail because you told the sender you had paid."
    >
      <EmailHeading>Payment not found yet</EmailHeading>
      <EmailText>{hello}</EmailText>
      <EmailText>{thanks}</EmailText>
      <EmailText>{notFound}</EmailText>
      <EmailText>{next}</EmailText>
      <EmailButton href={props.portalUrl}>View your statement</EmailButton>
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
