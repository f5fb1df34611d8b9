import { describe, expect, it } from "vitest";
import { AccountCapReached, DEFAULT_ACCOUNT_CAPS } from "./account-caps";

/** The message a create over the cap answers with. */
const capMessage = (kind: AccountCapReached["kind"], max: number) => new AccountCapReached(kind, max).message;

describe("account caps", () => {
  it("names the cap and what to do about it", () => {
    expect(capMessage("debtors", 2000)).toBe(
      "This account has reached its limit of 2,000 debtors. Delete debtors you no longer need to add new ones.",
    );
    expect(capMessage("organizations", 50)).toMatch(/limit of 50 organizations\. Delete organizations/);
    expect(capMessage("schedules", 2000)).toMatch(/limit of 2,000 active schedules\. Disable schedules/);
  });

  it("carries its kind, cap and message in the error", () => {
    const error = new AccountCapReached("organizations", 3);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ kind: "organizations", max: 3 });
    expect(error.message).toMatch(/^This account has reached its limit of 3 organizations\. /);
  });

  it("has a positive default for every kind", () => {
    for (const max of Object.values(DEFAULT_ACCOUNT_CAPS)) expect(max).toBeGreaterThan(0);
  });
});
