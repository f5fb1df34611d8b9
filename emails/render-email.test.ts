import { Body, Head, Html, Img, Text } from "@react-email/components";
import { render } from "@react-email/render";
import { createElement, type ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { TEMPLATE_IDS } from "../app/domain/presets";
import { TONES } from "../app/domain/strategies";
import PasswordChangedEmail from "./password-changed";
import ReminderEmail from "./reminder";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderEmail } from "./render-email";
import SignInEmail from "./sign-in";

const reminders: [string, ReactElement][] = TEMPLATE_IDS.flatMap((template) =>
  TONES.map(
    (tone) =>
      [`reminder ${template}/${tone}`, createElement(ReminderEmail, { ...REMINDER_SAMPLE, template, tone })] as [
        string,
        ReactElement,
      ],
  ),
);

const others: [string, ReactElement][] = [
  ["sign-in", createElement(SignInEmail, { url: "https://dunly.test/auth/magic?token=a&b=<c>", expiresInMinutes: 15 })],
  [
    "password-changed",
    createElement(PasswordChangedEmail, {
      changedAt: "Nov 21, 2026, 11:52 PM",
      signedOut: 2,
      signInUrl: "https://dunly.test/",
    }),
  ],
  [
    "an image (React's preload hint is left out)",
    createElement(
      Html,
      null,
      createElement(Head),
      createElement(
        Body,
        null,
        createElement(Img, { src: "https://dunly.test/logo.png", alt: "Logo" }),
        createElement(Text, null, "Hi"),
      ),
    ),
  ],
];

function Broken(): ReactElement {
  throw new Error("broken template");
}

describe("renderEmail", () => {
  it.each([...reminders, ...others])(
    "makes the same HTML as @react-email/render's render(): %s",
    async (_name, element) => {
      const html = await renderEmail(element);
      expect(html).toBe(await render(element));
      expect(html).toMatch(/^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1.0 Transitional\/\/EN"/);
      expect(html).not.toMatch(/rel="preload"/);
    },
  );

  it.each([
    ["sign-in", others[0]?.[1], "Your Dunly sign-in link"],
    ["password-changed", others[1]?.[1], "Your Dunly password was changed"],
  ])("the %s e-mail has its subject as title and reads in dark mode", async (_name, element, subject) => {
    const html = await renderEmail(element as ReactElement);
    expect(html).toContain(`<title>${subject}</title>`);
    expect(html).toContain('<meta name="color-scheme" content="light dark"');
    expect(html).toContain('<meta name="supported-color-schemes" content="light dark"');
    expect(html).toContain("prefers-color-scheme: dark");
  });

  it.each([...reminders, ...others.slice(0, 2)])(
    "%s: long addresses and links wrap, and the dark style covers the card, text, links and button",
    async (_name, element) => {
      const html = await renderEmail(element);
      // Inline on the card (kept by clients that drop <style>), and in the style element.
      expect(html).toMatch(/class="dunly-card"[^>]*style="[^"]*word-break:break-word;overflow-wrap:anywhere/);
      const dark = html.match(/@media \(prefers-color-scheme: dark\) \{([\s\S]*?)\n {2}\}/)?.[1] ?? "";
      for (const rule of [
        ".dunly-body { background-color: #111318 !important; }",
        ".dunly-card { background-color: #1c1e26 !important; }",
        ".dunly-text { color: #e8e8ee !important; }",
        ".dunly-link { color: #c4a7ff !important; }",
        ".dunly-button { background-color: #c4a7ff !important; color: #1c1e26 !important; }",
      ])
        expect(dark).toContain(rule);
    },
  );

  it("the colours meet WCAG AA (4.5:1 for text) in both schemes", async () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    // [text, background]: layout.tsx's and reminder.tsx's light colours, then the dark style's.
    const pairs: [string, string][] = [
      ["#1f1f1f", "#ffffff"],
      ["#1f1f1f", "#f6f5fb"],
      ["#555555", "#ffffff"],
      ["#6b6b6b", "#ffffff"],
      ["#6d28d9", "#ffffff"],
      ["#ffffff", "#6d28d9"],
      ["#e8e8ee", "#1c1e26"],
      ["#e8e8ee", "#262836"],
      ["#a9abb8", "#1c1e26"],
      ["#c4a7ff", "#1c1e26"],
      ["#c4a7ff", "#262836"],
      ["#1c1e26", "#c4a7ff"],
    ];
    // The pairs are the ones the e-mail uses: a colour changed there must be checked here.
    const html = (await renderEmail(reminders[0]![1])).toLowerCase();
    for (const [fg, bg] of pairs) {
      expect(html).toContain(fg);
      expect(html).toContain(bg);
      expect(ratio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("rejects when a component throws", async () => {
    await expect(renderEmail(createElement(Html, null, createElement(Broken)))).rejects.toThrow("broken template");
  });
});
