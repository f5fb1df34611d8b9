import { describe, expect, it } from "vitest";
import { senderDisplayName } from "./sender";

describe("senderDisplayName", () => {
  const user = { fullName: "Sally Sender", email: "sally@example.com" };
  it("is the user's full name", () => {
    expect(senderDisplayName(user)).toBe("Sally Sender");
    expect(senderDisplayName(user, null)).toBe("Sally Sender");
  });
  it("is the user's address when the name is empty", () => {
    expect(senderDisplayName({ fullName: "", email: "sally@example.com" })).toBe("sally@example.com");
  });
  it("is the organization's name when sent as a company", () => {
    expect(senderDisplayName(user, { name: "Acme Ltd" })).toBe("Acme Ltd");
    expect(senderDisplayName({ fullName: "", email: "sally@example.com" }, { name: "Acme Ltd" })).toBe("Acme Ltd");
  });
});
