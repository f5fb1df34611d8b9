import { describe, expect, it } from "vitest";
import { signedPayload, twilioSignature, verifyTwilioSignature } from "./signature";

// Twilio's documented example (Security → Validating requests): auth token 12345.
const TOKEN = "12345";
const URL_WITH_QUERY = "https://mycompany.com/myapp.php?foo=1&bar=2";
const PARAMS: [string, string][] = [
  ["CallSid", "CA1234567890ABCDE"],
  ["Caller", "+14158675310"],
  ["Digits", "1234"],
  ["From", "+14158675310"],
  ["To", "+18005551212"],
];
const DOCUMENTED = "GvWf1cFY/Q7PnoempGyD5oXAezc=";

describe("Twilio's request signature", () => {
  it("matches Twilio's documented example, a URL with a query string", async () => {
    expect(await twilioSignature(TOKEN, URL_WITH_QUERY, PARAMS)).toBe(DOCUMENTED);
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS, DOCUMENTED)).toBe(true);
  });

  it("sorts the parameters by name, whatever order they came in", async () => {
    const reversed = [...PARAMS].reverse();
    expect(signedPayload(URL_WITH_QUERY, reversed)).toBe(signedPayload(URL_WITH_QUERY, PARAMS));
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, reversed, DOCUMENTED)).toBe(true);
  });

  it("refuses a bad signature, another token, a changed value, a dropped query string or parameter", async () => {
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS, "GvWf1cFY/Q7PnoempGyD5oXAezd=")).toBe(false);
    expect(await verifyTwilioSignature("54321", URL_WITH_QUERY, PARAMS, DOCUMENTED)).toBe(false);
    const changed = PARAMS.map(([k, v]): [string, string] => [k, k === "Digits" ? "1235" : v]);
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, changed, DOCUMENTED)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, "https://mycompany.com/myapp.php", PARAMS, DOCUMENTED)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS.slice(1), DOCUMENTED)).toBe(false);
  });

  it("refuses a missing, empty or oversized header", async () => {
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS, null)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS, "")).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS, "A".repeat(500))).toBe(false);
  });
});
