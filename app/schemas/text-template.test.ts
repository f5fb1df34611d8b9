import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { DEFAULT_TEXT_TEMPLATE, TEXT_MAX_CHARS } from "~/domain/text-message";
import { TextTemplateSchema } from "./text-template";

const messages = (body: unknown) => {
  const parsed = v.safeParse(TextTemplateSchema, body === undefined ? {} : { body });
  return parsed.success ? [] : parsed.issues.map((i) => i.message);
};

describe("the text template form", () => {
  it("accepts the default, trimmed, with its line breaks made plain", () => {
    expect(v.parse(TextTemplateSchema, { body: `  ${DEFAULT_TEXT_TEMPLATE}\r\n` })).toEqual({
      body: DEFAULT_TEXT_TEMPLATE,
    });
  });

  it("names what is wrong: empty or missing, a missing field, one Dunly cannot fill in, too long", () => {
    expect(messages(undefined)).toEqual(["Enter the text of the message."]);
    expect(messages("  ")).toEqual(["Enter the text of the message."]);
    expect(messages("Pay {amount} {status}")).toEqual([expect.stringMatching(/must say \{link\}/)]);
    expect(messages("{amount} {status} {link} {iban}")).toEqual([expect.stringMatching(/\{iban\} is not/)]);
    expect(messages(`${"z".repeat(250)} {amount} {status} {link}`)).toEqual([
      expect.stringMatching(/could reach \d+ characters/),
    ]);
    expect(messages("x".repeat(TEXT_MAX_CHARS * 4 + 1))).toContain(
      `A text can be at most ${TEXT_MAX_CHARS} characters.`,
    );
  });
});
