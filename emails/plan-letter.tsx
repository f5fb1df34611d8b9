import { type PlanLetterMessage, planLetterSubject, planLetterText } from "../app/domain/plan-letter";
import { EmailButton, EmailHeading, EmailLayout, EmailText } from "./components/layout";

export type PlanLetterEmailProps = Omit<PlanLetterMessage, "to" | "replyTo" | "fromAddress">;

/** The debtor's e-mail about a payment plan (decisions/066): every date and amount of an agreed or offered plan. */
export default function PlanLetterEmail(props: PlanLetterEmailProps) {
  const words = planLetterText(props);
  const subject = planLetterSubject(props);
  return (
    <EmailLayout
      title={subject}
      preview={words.intro}
      footer={words.footer}
      language={props.language}
      brand={props.brand}
    >
      <EmailHeading>{subject}</EmailHeading>
      <EmailText>{words.hello}</EmailText>
      <EmailText>{words.intro}</EmailText>
      {words.lines.map((line) => (
        <EmailText key={line} style={{ margin: "0 0 4px" }}>
          {line}
        </EmailText>
      ))}
      {words.after && <EmailText>{words.after}</EmailText>}
      <EmailButton href={props.portalUrl}>{words.button}</EmailButton>
    </EmailLayout>
  );
}

PlanLetterEmail.PreviewProps = {
  senderName: "Acme Ltd",
  debtorName: "Ana Ruiz",
  kind: "confirmed",
  total: "€1,200.00",
  instalments: [
    { date: "1 March 2027", amount: "€400.00" },
    { date: "1 April 2027", amount: "€400.00" },
    { date: "1 May 2027", amount: "€400.00" },
  ],
  portalUrl: "http://localhost:5173/d/key.sig",
} satisfies PlanLetterEmailProps;
