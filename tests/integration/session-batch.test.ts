import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { SessionGate } from "~/auth/session-gate.server";
import { getDb } from "~/db/client.server";
import { boundQuery, ownedBySession, runBatch, runBound, SESSION_OWNER } from "~/db/prepared.server";
import { debtorsListQueries } from "~/debtors/debtors.server";
import { listOrganizations } from "~/debtors/organizations.server";
import { db, makeDebtor, makeOrg, makeUser } from "./fixtures";
import { DAY, request, sessionCookieName } from "./helpers";

/**
 * The session read in the page's own D1 batch (app/auth/session-gate.server.ts, docs/decisions/025):
 * the same rows as the session read first and the page's statements given its user; nothing of
 * anyone's without a valid session; the pages redirect or show the signed-out view as before.
 */

/** A D1 binding that counts its calls (batches and single statements alike). */
function countingD1(d1: D1Database) {
  let calls = 0;
  const wrap = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (key === "all" || key === "first" || key === "run" || key === "raw") {
          return (...args: unknown[]) => {
            calls += 1;
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const binding = new Proxy(d1, {
    get(target, key) {
      if (key === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (key === "batch") {
        return (statements: D1PreparedStatement[]) => {
          calls += 1;
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, calls: () => calls };
}

const listOf = (ownerId: string) => {
  const d = db();
  const debtors = debtorsListQueries(d, ownerId, { q: "", sort: "name", dir: "asc", limit: 25 });
  return [debtors.page(0), debtors.total, boundQuery(d, listOrganizations(d, ownerId))] as const;
};

describe("the session in the page's batch", () => {
  let owner: string;
  let other: string;
  let token: string;
  beforeEach(async () => {
    owner = (await makeUser("Olive Owner")).id;
    other = (await makeUser("Otto Other")).id;
    await makeDebtor(owner, { fullName: "Ada Owner" });
    await makeDebtor(owner, { fullName: "Bea Owner" });
    await makeDebtor(other, { fullName: "Cy Other" });
    await makeOrg(owner, "Owner Ltd", "1 Owner Street");
    await makeOrg(other, "Other Ltd", "2 Other Street");
    token = (await createSession(db(), owner)).token;
  });

  it("returns the same rows as the session read first, in one D1 call instead of two", async () => {
    const { binding, calls } = countingD1(env.DB);
    const gate = new SessionGate(getDb(binding), token);
    const read = await gate.batch(listOf(SESSION_OWNER));
    expect(calls()).toBe(1);
    expect(read.user?.id).toBe(owner);
    expect(read.rows).toEqual(await runBatch(db(), listOf(owner)));
    expect(read.rows?.[0].map((d) => d.fullName)).toEqual(["Ada Owner", "Bea Owner"]);
    // Everyone else who asks shares it: no second call.
    expect((await gate.user())?.id).toBe(owner);
    expect(calls()).toBe(1);
  });

  it("shares one reading when the root loader asks first in the same turn", async () => {
    const { binding, calls } = countingD1(env.DB);
    const gate = new SessionGate(getDb(binding), token);
    const root = gate.user();
    const page = gate.batch(listOf(SESSION_OWNER));
    expect((await root)?.id).toBe(owner);
    expect((await page).user?.id).toBe(owner);
    expect(calls()).toBe(1);
  });

  it("waits for a later turn of the event loop (the runtime's scheduler.wait here) before reading it alone", async () => {
    // The Workers runtime has it: the gate's wait is not Node's setTimeout there.
    expect(typeof (globalThis as { scheduler?: { wait?: unknown } }).scheduler?.wait).toBe("function");
    const { binding, calls } = countingD1(env.DB);
    const gate = new SessionGate(getDb(binding), token);
    const root = gate.user();
    // A page's batch that starts some microtasks later, in the same turn, still takes the read over.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    const page = gate.batch(listOf(SESSION_OWNER));
    expect((await root)?.id).toBe(owner);
    expect((await page).user?.id).toBe(owner);
    expect(calls()).toBe(1);
    // Nobody's batch: it is read on its own, once.
    const { binding: alone, calls: aloneCalls } = countingD1(env.DB);
    const lone = new SessionGate(getDb(alone), token);
    expect((await lone.user())?.id).toBe(owner);
    expect(aloneCalls()).toBe(1);
  });

  it("once the session was read, gives its user's id to the statements", async () => {
    const gate = new SessionGate(db(), token);
    await gate.user({ now: true });
    const read = await gate.batch(listOf(SESSION_OWNER));
    expect(read.rows).toEqual(await runBatch(db(), listOf(owner)));
  });

  it("reads nothing for an unknown token, and nothing after the session expired (which it deletes)", async () => {
    const unknown = await new SessionGate(db(), "not-a-session-token").batch(listOf(SESSION_OWNER));
    expect(unknown).toEqual({ user: null, rows: null });
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, owner)
      .run();
    const expired = await new SessionGate(db(), token).batch(listOf(SESSION_OWNER));
    expect(expired).toEqual({ user: null, rows: null });
    const left = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(owner).first("n");
    expect(left).toBe(0);
  });

  it("scopes every statement to the session's user in SQL: another's session reads only theirs", async () => {
    const theirs = (await createSession(db(), other)).token;
    const read = await new SessionGate(db(), theirs).batch(listOf(SESSION_OWNER));
    expect(read.rows?.[0].map((d) => d.fullName)).toEqual(["Cy Other"]);
    expect(read.rows?.[2].map((o) => o.name)).toEqual(["Other Ltd"]);
    // The statement itself says so, whatever the caller does with its rows.
    const [page] = listOf(SESSION_OWNER);
    const scoped = ownedBySession(
      db(),
      page,
      '(SELECT "user_id" FROM "sessions" WHERE "id" = ? AND "expires_at" > ?)',
      ["no-such-session", Date.now()],
    );
    expect((await scoped.all()).results).toEqual([]);
  });

  it("never runs a statement built for the session's user without one", async () => {
    const [page] = listOf(SESSION_OWNER);
    await expect(runBound(page)).rejects.toThrow(/without its owner/);
    await expect(runBatch(db(), [page])).rejects.toThrow(/without its owner/);
  });

  it("keeps a `?` inside a string literal out of the bound values' marks", async () => {
    const d = db();
    const query = boundQuery(d, listOrganizations(d, SESSION_OWNER));
    const withLiteral = { ...query, sql: query.sql.replace(/^select /i, "select 'why?' as \"q\", ") };
    const statement = ownedBySession(d, withLiteral, "?", [owner]);
    const rows = (await statement.all<{ q: string; name: string }>()).results;
    expect(rows.map((r) => [r.q, r.name])).toEqual([["why?", "Owner Ltd"]]);
  });
});

describe("pages whose batch reads the session", () => {
  const PAGES = ["/dashboard?debtor=1", "/debtors/1", "/report", "/schedule", "/iam/info"];

  it("redirect to /404 with a bad or expired cookie, as before", async () => {
    const owner = await makeUser();
    const { token } = await createSession(db(), owner.id, Date.now() - 31 * DAY);
    for (const cookie of ["garbage", token]) {
      for (const path of PAGES) {
        const res = await request(path, { headers: { Cookie: `${sessionCookieName()}=${cookie}` } });
        expect(res.status, path).toBe(302);
        expect(res.headers.get("Location"), path).toBe(`/404?redirectTo=${encodeURIComponent(path)}`);
      }
    }
  });

  it("show the lists' signed-out view with a bad cookie", async () => {
    for (const path of ["/debtors-list", "/schedules-list"]) {
      const res = await request(path, { headers: { Cookie: `${sessionCookieName()}=garbage` } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control"), path).toBeNull();
      expect(await res.text(), path).toContain("Sign in");
    }
  });
});
