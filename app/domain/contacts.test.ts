import { describe, expect, it } from "vitest";
import { contactState, copyList, MAX_DEBTOR_CONTACTS, MAX_OTHER_CONTACTS } from "./contacts";

describe("a debtor's contacts (decisions/057)", () => {
  it("copies each address once, lower-cased, never the primary's, in the order given", () => {
    expect(
      copyList("Acme@Example.com", [
        { email: "b@example.com" },
        { email: "ACME@example.com" },
        { email: " B@Example.com " },
        { email: "a@example.com" },
        { email: "" },
      ]),
    ).toEqual(["b@example.com", "a@example.com"]);
    expect(copyList("acme@example.com", [])).toEqual([]);
  });

  it("an opt-out or a bounce outranks the CC choice", () => {
    expect(contactState({ cc: true, bouncedAt: null, optedOut: false })).toBe("copied");
    expect(contactState({ cc: false, bouncedAt: null, optedOut: false })).toBe("not-copied");
    expect(contactState({ cc: true, bouncedAt: 1, optedOut: false })).toBe("bouncing");
    expect(contactState({ cc: false, bouncedAt: 1, optedOut: true })).toBe("opted-out");
  });

  it("bounds a debtor at ten contacts, the primary included", () => {
    expect(MAX_DEBTOR_CONTACTS).toBe(10);
    expect(MAX_OTHER_CONTACTS).toBe(9);
  });
});
