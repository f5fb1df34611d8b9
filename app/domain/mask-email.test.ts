import { describe, expect, it } from "vitest";
import { maskEmail } from "./mask-email";

describe("maskEmail", () => {
  it("keeps the first and last character of the local part and the whole domain", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j•••e@example.com");
  });

  it("never shows more than one character of a short local part", () => {
    expect(maskEmail("ab@example.com")).toBe("a•••@example.com");
    expect(maskEmail("a@example.com")).toBe("a•••@example.com");
    expect(maskEmail("abc@example.com")).toBe("a•••c@example.com");
  });

  it("hides the length of the local part", () => {
    expect(maskEmail("jx@x.io").length).toBe(maskEmail("j@x.io").length);
    expect(maskEmail("jane.doe.smith@x.io")).toBe("j•••h@x.io");
  });

  it("masks a value with no usable local part entirely", () => {
    expect(maskEmail("not-an-address")).toBe("•••");
    expect(maskEmail("@example.com")).toBe("•••");
  });

  it("keeps an astral first character whole", () => {
    expect(maskEmail("😀bob@example.com")).toBe("😀•••b@example.com");
  });
});
