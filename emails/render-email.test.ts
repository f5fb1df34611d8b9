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
    expect(html).toContain("prefers-color-scheme: dark");
  });

  it("rejects when a component throws", async () => {
    await expect(renderEmail(createElement(Html, null, createElement(Broken)))).rejects.toThrow("broken template");
  });
});
