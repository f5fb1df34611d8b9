import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { CSSProperties, ReactNode } from "react";
import type { Language } from "../../app/domain/languages";
import { REMINDER_LABELS } from "../reminder-copy";

/**
 * Dark mode for the mail clients that honour it (Apple Mail, iOS Mail, Outlook.com and others): the
 * inline light colours are overridden by class. WCAG contrast ratios (AA needs 4.5:1 for text, 3:1
 * for a control against what surrounds it), computed with the WCAG relative-luminance formula:
 * - light: text #1f1f1f on the card #ffffff 16.48 (on the details box #f6f5fb 15.21); muted #555555
 *   7.46; footer #6b6b6b 5.33; links #6d28d9 7.10; the button's #ffffff on #6d28d9 7.10.
 * - dark: text #e8e8ee on the card #1c1e26 13.62 (on the details box #262836 11.96); muted #a9abb8
 *   7.29; links #c4a7ff 8.17 (7.17 on the details box); the button turns #c4a7ff with #1c1e26
 *   text, 8.17, and stands out from the card at 8.17 (its light #6d28d9 would be 2.34 there).
 * Long words (addresses, links) wrap instead of widening the card on a phone: inline on the card
 * too, for clients that drop the style element. On a phone the card and the reminder's details box
 * pad less: a statement's columns that never break inside a word (a September date, a
 * "€1,000,000.00" balance, a bold total) need about 320 px, which the desktop padding of 32 + 18 px
 * a side left only 290 of a 390 px screen for.
 */
const DARK_MODE_CSS = `
  .dunly-body, .dunly-card, .dunly-detail { word-break: break-word; overflow-wrap: anywhere; }
  @media (max-width: 480px) {
    .dunly-card { padding: 20px 16px !important; }
    .dunly-detail { padding: 12px !important; }
  }
  @media (prefers-color-scheme: dark) {
    .dunly-body { background-color: #111318 !important; }
    .dunly-card { background-color: #1c1e26 !important; }
    .dunly-text { color: #e8e8ee !important; }
    .dunly-muted { color: #a9abb8 !important; }
    .dunly-detail { background-color: #262836 !important; }
    .dunly-link { color: #c4a7ff !important; }
    .dunly-button { background-color: #c4a7ff !important; color: #1c1e26 !important; }
    .dunly-rule { border-color: #3a3d4d !important; }
  }
`;

/** Long unbroken words (an address, a link) break rather than widen the card. */
const WRAP = { wordBreak: "break-word", overflowWrap: "anywhere" } as const;

/**
 * The frame every Dunly e-mail shares: its title (the subject), preview line, a white card (dark
 * where the client prefers it), and a quiet footer.
 */
export function EmailLayout({
  title,
  preview,
  children,
  footer,
  language = "en",
}: {
  /** The document title: the e-mail's subject. */
  title: string;
  preview: string;
  children: ReactNode;
  footer?: ReactNode;
  /** The language the e-mail is written in (a debtor's, app/domain/languages.ts): its lang and default footer. */
  language?: Language;
}) {
  return (
    <Html lang={language}>
      <Head>
        <title>{title}</title>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{DARK_MODE_CSS}</style>
      </Head>
      <Preview>{preview}</Preview>
      <Body
        className="dunly-body"
        style={{ backgroundColor: "#f4f4f7", fontFamily: "Helvetica, Arial, sans-serif", margin: 0, padding: "24px 0" }}
      >
        <Container
          className="dunly-card"
          style={{ backgroundColor: "#ffffff", borderRadius: 8, padding: "32px", maxWidth: 560, ...WRAP }}
        >
          {children}
          <Hr className="dunly-rule" style={{ borderColor: "#e6e6e6", margin: "24px 0" }} />
          <Section>
            <Text className="dunly-muted" style={{ color: "#6b6b6b", fontSize: 12, lineHeight: "18px", margin: 0 }}>
              {footer ?? REMINDER_LABELS[language].sentBy}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The headline of a Dunly e-mail (most say their subject). */
export function EmailHeading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h1" className="dunly-text" style={{ fontSize: 22, margin: "0 0 16px", color: "#1f1f1f" }}>
      {children}
    </Heading>
  );
}

const TEXT = { fontSize: 15, lineHeight: "22px", color: "#1f1f1f" } as const;

/** A paragraph of a Dunly e-mail's body; `style` adds to the text's own (italic, monospace). */
export function EmailText({ style, children }: { style?: CSSProperties; children: ReactNode }) {
  return (
    <Text className="dunly-text" style={{ ...TEXT, ...style }}>
      {children}
    </Text>
  );
}

/** The call-to-action button of every Dunly e-mail. */
export function EmailButton({
  href,
  children,
  ...rest
}: { href: string; children: ReactNode } & { [data: `data-${string}`]: string }) {
  return (
    <Button
      {...rest}
      href={href}
      className="dunly-button"
      style={{
        backgroundColor: "#6d28d9",
        color: "#ffffff",
        borderRadius: 6,
        padding: "12px 20px",
        fontWeight: 600,
        fontSize: 15,
      }}
    >
      {children}
    </Button>
  );
}
