import { Body, Button, Container, Head, Heading, Hr, Html, Img, Preview, Section, Text } from "@react-email/components";
import { type CSSProperties, createContext, type ReactNode, useContext } from "react";
import { accentColours, DEFAULT_ACCENT, type MessageBrand } from "../../app/domain/brand";
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

/**
 * The user's accent (docs/decisions/058) in place of Dunly's violet: its light variant inline (white
 * text on it, it on white: at least 4.5:1, app/domain/brand.ts accentColours), its dark variant for
 * clients in dark mode. Both are normalized again here, so nothing but "#rrggbb" reaches the CSS.
 */
export function emailAccent(brand: MessageBrand | null | undefined): { light: string; dark: string } {
  if (!brand) return { light: DEFAULT_ACCENT, dark: "#c4a7ff" };
  const light = accentColours(brand.accent).light;
  const dark = accentColours(brand.accentDark).dark;
  return { light, dark };
}

function brandCss(dark: string) {
  return `
  @media (prefers-color-scheme: dark) {
    .dunly-link { color: ${dark} !important; }
    .dunly-button { background-color: ${dark} !important; color: #1c1e26 !important; }
  }
`;
}

export const AccentContext = createContext(DEFAULT_ACCENT);

/** Only an absolute http(s) URL is a logo a mail client can fetch. */
function logoSrc(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Long unbroken words (an address, a link) break rather than widen the card. */
const WRAP = { wordBreak: "break-word", overflowWrap: "anywhere" } as const;

/** The brand's "Powered by Dunly" line in each language of an e-mail to a debtor. */
const POWERED_BY: Record<Language, string> = {
  en: "Powered by Dunly",
  de: "Bereitgestellt von Dunly",
  fr: "Propulsé par Dunly",
  es: "Con la tecnología de Dunly",
  nl: "Mogelijk gemaakt door Dunly",
};

/**
 * The frame every Dunly e-mail shares: its title (the subject), preview line, a white card (dark
 * where the client prefers it), and a quiet footer. With a `brand` (an e-mail to a debtor, sent in
 * the user's name): the user's logo and name above, their accent on buttons and links, and a small
 * "Powered by Dunly" line under the footer unless the top plan removed it.
 */
export function EmailLayout({
  title,
  preview,
  children,
  footer,
  language = "en",
  brand,
}: {
  /** The document title: the e-mail's subject. */
  title: string;
  preview: string;
  children: ReactNode;
  footer?: ReactNode;
  /** The language the e-mail is written in (a debtor's, app/domain/languages.ts): its lang and default footer. */
  language?: Language;
  brand?: MessageBrand | null;
}) {
  const accent = emailAccent(brand);
  const logo = logoSrc(brand?.logoUrl);
  return (
    <Html lang={language}>
      <Head>
        <title>{title}</title>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{DARK_MODE_CSS + (brand ? brandCss(accent.dark) : "")}</style>
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
          {brand && (
            <Section data-brand="" style={{ margin: "0 0 20px" }}>
              {logo && (
                <Img
                  src={logo}
                  alt=""
                  height="48"
                  style={{ maxHeight: 48, maxWidth: 240, height: 48, width: "auto", marginBottom: 8 }}
                />
              )}
              <Text className="dunly-text" style={{ fontSize: 18, fontWeight: 700, color: "#1f1f1f", margin: 0 }}>
                {brand.name}
              </Text>
            </Section>
          )}
          <AccentContext.Provider value={accent.light}>{children}</AccentContext.Provider>
          <Hr className="dunly-rule" style={{ borderColor: "#e6e6e6", margin: "24px 0" }} />
          <Section>
            <Text className="dunly-muted" style={{ color: "#6b6b6b", fontSize: 12, lineHeight: "18px", margin: 0 }}>
              {footer ?? REMINDER_LABELS[language].sentBy}
            </Text>
            {brand?.poweredBy && (
              <Text
                data-powered-by=""
                className="dunly-muted"
                style={{ color: "#6b6b6b", fontSize: 11, lineHeight: "16px", margin: "8px 0 0" }}
              >
                {POWERED_BY[language]}
              </Text>
            )}
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
  const accent = useContext(AccentContext);
  return (
    <Button
      {...rest}
      href={href}
      className="dunly-button"
      style={{
        backgroundColor: accent,
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
