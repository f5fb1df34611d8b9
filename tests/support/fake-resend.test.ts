import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeResend, startFakeResend } from "./fake-resend";

let fake: FakeResend;
beforeAll(async () => {
  fake = await startFakeResend();
});
afterAll(() => {
  fake.server.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${fake.url}${path}`, { method: "POST", body: JSON.stringify(body), headers });
const email = (to: string, key?: string) =>
  post("/emails", { from: "a@dunly.test", to: [to], subject: "s" }, key ? { "Idempotency-Key": key } : {});
const requests = async (to: string) =>
  (await (await fetch(`${fake.url}/__requests?to=${encodeURIComponent(to)}`)).json()) as { status: number }[];

describe("the fake Resend", () => {
  it("answers a programmed response with its status, body and headers, then 200", async () => {
    await post("/__program", { to: "p@example.com", responses: [{ status: 429, headers: { "retry-after": "2" } }] });
    const limited = await email("p@example.com", "k1");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toMatchObject({ statusCode: 429, name: "programmed_error" });
    const sent = await email("p@example.com", "k1");
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ id: expect.stringMatching(/^fake_/) });
  });

  it("with a limit, lets that many POST /emails through per rolling second and answers 429 with Retry-After", async () => {
    expect((await post("/__limit", { perSecond: 2 })).status).toBe(200);
    try {
      const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => email("l@example.com", `l${i}`)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 200, 429, 429, 429]);
      for (const a of answers.filter((x) => x.status === 429)) {
        expect(a.headers.get("retry-after")).toBe("1");
        expect(await a.json()).toMatchObject({ statusCode: 429, name: "rate_limit_exceeded" });
      }
      expect((await requests("l@example.com")).map((r) => r.status).sort()).toEqual(statuses);

      await new Promise((resolve) => setTimeout(resolve, 1050));
      expect((await email("l@example.com", "l6")).status).toBe(200);
    } finally {
      expect((await post("/__limit", { perSecond: null })).status).toBe(200);
    }
    const unlimited = await Promise.all([1, 2, 3, 4, 5].map((i) => email("u@example.com", `u${i}`)));
    expect(unlimited.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it("refuses a limit that is no positive integer", async () => {
    for (const perSecond of [0, -1, 1.5, "2"]) expect((await post("/__limit", { perSecond })).status).toBe(400);
  });
});
