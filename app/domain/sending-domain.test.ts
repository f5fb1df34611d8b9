import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { SendingDomainSchema } from "~/schemas/sending-domain";
import { asciiHostname, domainStatusOf, hostnameProblem, localPartProblem, standInRecords } from "./sending-domain";

describe("sending domain rules", () => {
  it("makes what was typed the name DNS knows: lower case, ASCII for an internationalized name", () => {
    expect(asciiHostname("  Example.COM. ")).toBe("example.com");
    expect(asciiHostname("MÜNCHEN.de")).toBe("xn--mnchen-3ya.de");
    expect(asciiHostname("https://example.com")).toBeNull();
    expect(asciiHostname("me@example.com")).toBeNull();
    expect(asciiHostname("exa mple.com")).toBeNull();
    expect(asciiHostname("")).toBeNull();
  });

  it("refuses what is no domain of the user's", () => {
    expect(hostnameProblem("example.com")).toBeNull();
    expect(hostnameProblem("mail.example.co.uk")).toBeNull();
    expect(hostnameProblem("xn--mnchen-3ya.de")).toBeNull();
    expect(hostnameProblem("example")).toMatch(/full domain/);
    expect(hostnameProblem("10.0.0.1")).toMatch(/not an address/);
    expect(hostnameProblem("ex_ample.com")).toMatch(/only letters/);
    expect(hostnameProblem("-ex.com")).toMatch(/hyphen/);
    expect(hostnameProblem("a..com")).toMatch(/empty parts/);
    expect(hostnameProblem(`${"a".repeat(64)}.com`)).toMatch(/63/);
    expect(hostnameProblem("dunly.app")).toMatch(/Dunly's own/);
    expect(hostnameProblem("mail.dunly.app")).toMatch(/Dunly's own/);
    expect(hostnameProblem("notdunly.app")).toBeNull();
  });

  it("takes a plain local part", () => {
    expect(localPartProblem("billing")).toBeNull();
    expect(localPartProblem("accounts.receivable")).toBeNull();
    expect(localPartProblem("")).toMatch(/before the @/);
    expect(localPartProblem(".billing")).toMatch(/Use letters/);
    expect(localPartProblem("a..b")).toMatch(/Use letters/);
    expect(localPartProblem("bill ing")).toMatch(/Use letters/);
  });

  it("folds Resend's statuses: only 'verified' sends", () => {
    expect(domainStatusOf("verified")).toBe("verified");
    expect(domainStatusOf("failed")).toBe("failed");
    expect(domainStatusOf("partially_failed")).toBe("failed");
    expect(domainStatusOf("not_started")).toBe("not_started");
    for (const s of ["pending", "partially_verified", "temporary_failure", "something_new"]) {
      expect(domainStatusOf(s)).toBe("pending");
    }
  });

  it("gives the stand-ins Resend's records: SPF on send (MX, TXT) and a DKIM key, the same for the same name", () => {
    const records = standInRecords("example.com");
    expect(records.map((r) => [r.record, r.type, r.name])).toEqual([
      ["SPF", "MX", "send"],
      ["SPF", "TXT", "send"],
      ["DKIM", "TXT", "resend._domainkey"],
    ]);
    expect(records[0]?.priority).toBe(10);
    expect(standInRecords("example.com")).toEqual(records);
    expect(standInRecords("other.com")[2]?.value).not.toBe(records[2]?.value);
  });

  it("the form's schema keeps the ASCII name and a lower-case local part, with one message per problem", () => {
    const ok = v.safeParse(SendingDomainSchema, { domain: " Bäckerei.DE ", local_part: " Billing " });
    expect(ok.success && ok.output).toEqual({ domain: "xn--bckerei-5wa.de", local_part: "billing" });
    const defaulted = v.safeParse(SendingDomainSchema, { domain: "example.com" });
    expect(defaulted.success && defaulted.output.local_part).toBe("billing");
    const bad = v.safeParse(SendingDomainSchema, { domain: "dunly.app", local_part: "x y" });
    expect(bad.issues?.map((i) => i.message)).toEqual([
      "This is Dunly's own domain: please enter your business's domain",
      "Use letters, digits, dots, hyphens, underscores or +, starting and ending with a letter or digit",
    ]);
  });
});
