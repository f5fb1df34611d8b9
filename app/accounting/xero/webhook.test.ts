import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MAX_TENANTS_PER_PAYLOAD, readXeroPayload, verifyXeroSignature, xeroPayload, xeroSignature } from "./webhook";

// Xero's "Intent to receive" payload, as its documentation shows it.
const INTENT = '{"events":[],"lastEventSequence":0,"firstEventSequence":0,"entropy":"S0m3r4Nd0mt3xt"}';
const KEY = "OSd0eLlVIY9ZhViEqlDUh4+6n6M+Lo+eDaEJheJ6OCCgWwIz2D3JIAU6jPMipHRbgKTLz2uJ+xiACXGDBLrgdA==";
/** What Xero computes (HMAC-SHA256 keyed with the key's text, base64), by another implementation. */
const nodeSignature = (body: string, key = KEY) => createHmac("sha256", key).update(body).digest("base64");

describe("x-xero-signature", () => {
  it("is base64(HMAC-SHA256(raw body, key)), as Xero signs", async () => {
    expect(await xeroSignature(INTENT, KEY)).toBe(nodeSignature(INTENT));
    expect(await xeroSignature(new TextEncoder().encode("é"), KEY)).toBe(nodeSignature("é"));
  });

  it("verifies a correct signature, of the bytes as sent", async () => {
    expect(await verifyXeroSignature(INTENT, nodeSignature(INTENT), KEY)).toBe(true);
    expect(await verifyXeroSignature(new TextEncoder().encode(INTENT), nodeSignature(INTENT), KEY)).toBe(true);
  });

  it("refuses another key, a changed body, a re-serialised body, and anything not a signature", async () => {
    const good = nodeSignature(INTENT);
    expect(await verifyXeroSignature(INTENT, nodeSignature(INTENT, "another key"), KEY)).toBe(false);
    expect(await verifyXeroSignature(INTENT.replace("S0m3", "s0m3"), good, KEY)).toBe(false);
    expect(await verifyXeroSignature(JSON.stringify(JSON.parse(INTENT), null, 1), good, KEY)).toBe(false);
    for (const bad of [null, undefined, "", "not base64!", good.slice(0, -2), `${good}AA`]) {
      expect(await verifyXeroSignature(INTENT, bad, KEY)).toBe(false);
    }
    // No key set up: nothing verifies.
    expect(await verifyXeroSignature(INTENT, nodeSignature(INTENT, ""), "")).toBe(false);
  });

  it("flipping any one bit of the signature fails", async () => {
    const good = nodeSignature(INTENT);
    const bytes = Buffer.from(good, "base64");
    for (let i = 0; i < bytes.length; i += 7) {
      const flipped = Buffer.from(bytes);
      flipped[i] = (flipped[i] ?? 0) ^ 1;
      expect(await verifyXeroSignature(INTENT, flipped.toString("base64"), KEY)).toBe(false);
    }
  });
});

describe("Xero's payload", () => {
  const tenant = "c2cc9b6e-9458-4c7d-93cc-f02b81b0594f";

  it("with no events is the intent-to-receive check", () => {
    expect(readXeroPayload(INTENT)).toEqual({ kind: "intent" });
  });

  it("names each organisation whose invoices or contacts changed, once", () => {
    const other = "4ba8c1b5-1c1a-4f0c-9d3f-6a1b2c3d4e5f";
    const body = JSON.stringify({
      events: [
        { eventCategory: "INVOICE", eventType: "UPDATE", tenantId: tenant, resourceId: "a" },
        { eventCategory: "CONTACT", eventType: "CREATE", tenantId: tenant, resourceId: "b" },
        { eventCategory: "INVOICE", eventType: "CREATE", tenantId: other, resourceId: "c" },
        // Not Dunly's: a subscription event, a malformed tenant, junk.
        { eventCategory: "SUBSCRIPTION", tenantId: "9d3f6a1b-0000-4000-8000-000000000000" },
        { eventCategory: "INVOICE", tenantId: "'; DROP TABLE x; --" },
        null,
        "x",
      ],
      firstEventSequence: 1,
      lastEventSequence: 7,
      entropy: "X",
    });
    expect(readXeroPayload(body)).toEqual({ kind: "events", tenantIds: [tenant, other] });
  });

  it("is unreadable when it is not Xero's JSON", () => {
    expect(readXeroPayload("not json")).toEqual({ kind: "unreadable" });
    expect(readXeroPayload('{"events":"no"}')).toEqual({ kind: "unreadable" });
    expect(readXeroPayload("null")).toEqual({ kind: "unreadable" });
  });

  it("syncs at most MAX_TENANTS_PER_PAYLOAD organisations", () => {
    const events = Array.from({ length: MAX_TENANTS_PER_PAYLOAD + 5 }, (_, i) => ({
      eventCategory: "INVOICE",
      tenantId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    }));
    const read = readXeroPayload(JSON.stringify({ events }));
    expect(read.kind === "events" && read.tenantIds.length).toBe(MAX_TENANTS_PER_PAYLOAD);
  });

  it("as the stand-in builds it reads back as Xero's", () => {
    const body = xeroPayload([{ tenantId: tenant, resourceId: "inv-1" }], 3, Date.UTC(2026, 0, 2));
    const json = JSON.parse(body);
    expect(json).toMatchObject({ firstEventSequence: 3, lastEventSequence: 3 });
    expect(json.events[0]).toMatchObject({
      resourceUrl: "https://api.xero.com/api.xro/2.0/Invoices/inv-1",
      eventCategory: "INVOICE",
      eventType: "UPDATE",
      tenantType: "ORGANISATION",
      eventDateUtc: "2026-01-02T00:00:00.000",
    });
    expect(readXeroPayload(body)).toEqual({ kind: "events", tenantIds: [tenant] });
  });
});
