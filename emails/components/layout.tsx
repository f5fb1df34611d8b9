import { Body, Button, Container, Head, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";

/** The frame every Dunly e-mail shares: preview line, a white card, and a quiet footer. */
export function EmailLayout({
  preview,
  children,
  footer,
}: {
  preview: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: "#f4f4f7", fontFamily: "Helvetica, Arial, sans-serif", margin: 0, padding: "24px 0" }}
      >
        <Container style={{ backgroundColor: "#ffffff", borderRadius: 8, padding: "32px", maxWidth: 560 }}>
          {children}
          <Hr style={{ borderColor: "#e6e6e6", margin: "24px 0" }} />
          <Section>
            <Text style={{ color: "#8a8a8a", fontSize: 12, lineHeight: "18px", margin: 0 }}>
              {footer ?? "Sent by Dunly."}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
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
