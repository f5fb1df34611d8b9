import { afterEach, describe, expect, it, vi } from "vitest";
import { readMailConfig } from "./config";
import { createDomain, domainOf, getDomain, removeDomain, verifyDomain } from "./domains";
import { checkOutgoing, RESEND_API_KEY_MISSING } from "./send";

/** Resend's Domains API (docs/decisions/059): the mail Worker's requests and the sends' failure policy. */

const db = {} as D1Database;
const live = readMailConfig({
  APP_ENV: "production",
  MAIL_FROM_ADDRESS: "reminders@dunly.app",
  RESEND_BASE_URL: "https://api.resend.test",
  RESEND_API_KEY: "re_unit",
  RESEND_TIMEOUT_SECONDS: "1",
});

const domain = {
  object: "domain",
  id: "d-1",
  name: "acme.com",
  status: "pending",
  records: [
    { record: "SPF", name: "send", type: "MX", ttl: "Auto", status: "pending", value: "feedback-smtp.x", priority: 10 },
    { record: "DKIM", name: "resend._domainkey", type: "TXT", status: "pending", value: "p=abc" },
    { junk: true },
  ],
};

/** Answers in turn; records each request's method and path. */
function answers(...responses: (Response | Error)[]) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push(`${init.method} ${new URL(url).pathname}`);
    const next = responses.shift();
    if (!next) throw new Error("no more answers");
    if (next instanceof Error) throw next;
    return next;
  });
  return calls;
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

afterEach(() => vi.unstubAllGlobals());

describe("the Domains API through the mail Worker", () => {
  it("reads Resend's domain defensively: its records with their priority, nothing that is no record", () => {
    expect(domainOf(domain)).toEqual({
      id: "d-1",
      name: "acme.com",
      status: "pending",
      records: [
        {
          record: "SPF",
          name: "send",
          type: "MX",
          ttl: "Auto",
          status: "pending",
          value: "feedback-smtp.x",
          priority: 10,
        },
        {
          record: "DKIM",
          name: "resend._domainkey",
          type: "TXT",
          ttl: null,
          status: "pending",
          value: "p=abc",
          priority: null,
        },
      ],
    });
    expect(domainOf({ name: "x.com" })).toBeNull();
  });

  it("creates once (a 500 is not retried: a second create would be a duplicate), retryable", async () => {
    const calls = answers(json({ statusCode: 500, name: "internal_server_error", message: "down" }, 500));
    expect(await createDomain(db, live, "acme.com")).toEqual({
      ok: false,
      retryable: true,
      status: 500,
      error: "Resend 500: down",
      attempts: 1,
    });
    expect(calls).toEqual(["POST /domains"]);
  });

  it("finds a domain it created before by its name when Resend says it is registered already", async () => {
    const calls = answers(
      json(
        { statusCode: 403, name: "validation_error", message: "The domain acme.com has been registered already." },
        403,
      ),
      json({ object: "list", data: [{ id: "d-1", name: "acme.com", status: "pending" }] }),
      json(domain),
    );
    const result = await createDomain(db, live, "acme.com");
    expect(result.ok && result.domain.id).toBe("d-1");
    expect(calls).toEqual(["POST /domains", "GET /domains", "GET /domains/d-1"]);
  });

  it("refuses Dunly's own sending domain without asking Resend", async () => {
    const calls = answers();
    for (const name of ["dunly.app", "mail.dunly.app"]) {
      expect(await createDomain(db, live, name)).toMatchObject({ ok: false, retryable: false });
    }
    expect(calls).toEqual([]);
  });

  it("verifies (POST verify, then GET), retrying a 5xx and a dropped connection twice like a send", async () => {
    const calls = answers(
      json({ message: "busy" }, 503),
      new TypeError("connection reset"),
      json({ object: "domain", id: "d-1" }),
      json({ ...domain, status: "verified" }),
    );
    const result = await verifyDomain(db, live, "d-1");
    expect(result.ok && result.domain.status).toBe("verified");
    expect(calls).toEqual([
      "POST /domains/d-1/verify",
      "POST /domains/d-1/verify",
      "POST /domains/d-1/verify",
      "GET /domains/d-1",
    ]);
  });

  it("a 404 says the domain is gone; removing one that is gone is done; a 429 is not waited for", async () => {
    answers(json({ statusCode: 404, name: "not_found", message: "Domain not found" }, 404));
    expect(await getDomain(db, live, "d-9")).toMatchObject({
      ok: false,
      notFound: true,
      retryable: false,
      status: 404,
    });
    answers(json({ statusCode: 404, name: "not_found", message: "Domain not found" }, 404));
    expect(await removeDomain(db, live, "d-9")).toEqual({ ok: true });
    const calls = answers(new Response("{}", { status: 429, headers: { "Retry-After": "2" } }));
    expect(await getDomain(db, live, "d-1")).toMatchObject({
      ok: false,
      retryable: true,
      status: 429,
      retryAfterMs: 2000,
    });
    expect(calls).toHaveLength(1);
  });

  it("fails closed in production without the key, asking nobody", async () => {
    const calls = answers();
    const noKey = readMailConfig({
      APP_ENV: "production",
      MAIL_FROM_ADDRESS: "r@dunly.app",
      RESEND_BASE_URL: "https://x.test",
    });
    expect(await createDomain(db, noKey, "acme.com")).toEqual({
      ok: false,
      retryable: false,
      status: null,
      error: RESEND_API_KEY_MISSING,
      attempts: 0,
    });
    expect(calls).toEqual([]);
  });
});

const mail = (fromAddress: string | null) => ({
  to: "payer@example.com",
  fromName: "Acme",
  fromAddress,
  subject: "Reminder",
  html: "<p>Hi</p>",
  text: "Hi",
});

describe("the From of an e-mail", () => {
  it("is the sending domain's address when given, else MAIL_FROM_ADDRESS; a bad one is refused", () => {
    expect(checkOutgoing(live, mail("billing@acme.com"))).toEqual({
      ok: true,
      from: `"Acme" <billing@acme.com>`,
    });
    expect(checkOutgoing(live, mail(null))).toEqual({
      ok: true,
      from: `"Acme" <reminders@dunly.app>`,
    });
    expect(checkOutgoing(live, mail("billing@acme.com\r\nBcc: x@y.z")).ok).toBe(false);
    expect(checkOutgoing(live, mail("Billing <b@acme.com>")).ok).toBe(false);
  });
});
