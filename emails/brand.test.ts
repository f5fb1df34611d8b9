import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { accentColours, type MessageBrand } from "../app/domain/brand";
import ReceiptEmail from "./receipt";
import type { ReminderEmailProps } from "./reminder";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderEmail } from "./render-email";
import { renderReminder } from "./render-reminder";

/** The user's brand in the e-mails a debtor gets (docs/decisions/058). */

const reminder = (brand: MessageBrand | null): ReminderEmailProps => ({
  ...REMINDER_SAMPLE,
  template: "initial",
  tone: 1,
  brand,
});

const pale = accentColours("#ffd400");
const brand: MessageBrand = {
  name: "Acme Ltd",
  logoUrl: "https://dunly.app/logos/abcdefghijklmnopqrstuvwxyz",
  accent: pale.light,
  accentDark: pale.dark,
  signature: "Jane Smith\nHead of accounts <b>bold</b>\n+1 555 0100",
  poweredBy: true,
};

describe("the brand in a reminder", () => {
  it("shows the logo, the accent on the button and links, the signature as text and the footer in the user's voice", async () => {
    const { html, text } = await renderReminder(reminder(brand));
    expect(html).toContain('src="https://dunly.app/logos/abcdefghijklmnopqrstuvwxyz"');
    // The name follows the logo as text, so the image itself is decorative.
    expect(html).toMatch(/<img alt="" [^>]*logos\/abcdefghijklmnopqrstuvwxyz/);
    expect(text).toMatch(/^Acme Ltd/m);
    // The adjusted (readable) accent, never the pale one, on the button and the links.
    expect(pale.light).not.toBe("#ffd400");
    expect(html).toContain(`background-color:${pale.light}`);
    expect(html).toContain(`color:${pale.light}`);
    expect(html).not.toContain("color:#ffd400");
    expect(html).not.toContain("#6d28d9");
    // The dark variant for clients in dark mode.
    expect(html).toContain(`.dunly-button { background-color: ${pale.dark} !important`);
    // The signature: its lines, escaped, never markup.
    expect(html).toContain("Head of accounts &lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toContain("<b>bold</b>");
    expect(text).toContain("Jane Smith");
    expect(text).toContain("+1 555 0100");
    // The footer speaks as the sender; the opt-out stays; Powered by Dunly under it.
    expect(text).toContain("Sent by Jane Smith. To reach them, reply to this e-mail.");
    expect(text).not.toContain("on behalf of");
    expect(html).toContain("data-opt-out");
    expect(text).toContain("Powered by Dunly");
  });

  it("leaves out Powered by Dunly when removed, and a logo that is no http(s) URL", async () => {
    const { html, text } = await renderReminder(
      reminder({ ...brand, poweredBy: false, logoUrl: "javascript:alert(1)", signature: null }),
    );
    expect(text).not.toContain("Powered by Dunly");
    expect(html).not.toContain("javascript:");
    // Without a logo, the name heads the e-mail.
    expect(html).toContain("data-brand");
    expect(text).toMatch(/^Acme Ltd/m);
  });

  it("refuses anything but a colour in the CSS", async () => {
    const { html } = await renderReminder(
      reminder({ ...brand, accent: "red;}</style><script>x</script>", accentDark: "#fff;}" }),
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("background-color:#6d28d9");
  });

  it("keeps Dunly's look without a brand", async () => {
    const { html, text } = await renderReminder(reminder(null));
    expect(html).toContain("background-color:#6d28d9");
    expect(html).not.toContain("data-brand");
    expect(text).not.toContain("Powered by Dunly");
  });
});

describe("the brand in a receipt", () => {
  it("carries the logo, accent and Powered by Dunly", async () => {
    const html = await renderEmail(
      createElement(ReceiptEmail, {
        ...ReceiptEmail.PreviewProps,
        brand: { ...brand, accent: "#0f766e", accentDark: "#2dd4bf" },
      }),
    );
    expect(html).toContain("logos/abcdefghijklmnopqrstuvwxyz");
    expect(html).toContain("background-color:#0f766e");
    expect(html).toContain("Powered by Dunly");
  });
});
