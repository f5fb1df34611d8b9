import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { type Bindable, countOf } from "~/db/client.server";
import {
  bindParam,
  boundQuery,
  OWNER_ID,
  preparedQuery,
  preparedQueryBy,
  runBatch,
  runBound,
} from "~/db/prepared.server";
import { debtors, organizations, schedules, users } from "~/db/schema";
import { listDebtors } from "~/debtors/debtors.server";
import { listOrganizations } from "~/debtors/organizations.server";
import type { SortDirection } from "~/domain/list-params";
import { countBouncingDebtors } from "~/responses/mail-events.server";
import { db, makeDebtor, makeSchedule, makeUser } from "./fixtures";

/**
 * Queries built once per isolate and bound per request: the
 * same rows as drizzle's own query for each owner, whoever asked first.
 */

describe("preparedQuery", () => {
  let owner: string;
  let other: string;
  beforeEach(async () => {
    owner = (await makeUser()).id;
    other = (await makeUser()).id;
    await makeDebtor(owner, { fullName: "Ada Owner" });
    await makeDebtor(owner, { fullName: "Bea Owner" });
    await makeDebtor(other, { fullName: "Cy Other" });
  });

  it("builds once per D1 binding and binds each call's values: each owner gets their own rows", async () => {
    let builds = 0;
    const debtorsOf = preparedQuery((d) => {
      builds += 1;
      return listDebtors(d, OWNER_ID, { limit: 10 });
    });
    // A new drizzle client per request over the same binding, as the Worker makes them.
    const mine = await runBound(debtorsOf(db(), { ownerId: owner }));
    const theirs = await runBound(debtorsOf(db(), { ownerId: other }));
    expect(builds).toBe(1);
    expect(mine.map((d) => d.fullName)).toEqual(["Ada Owner", "Bea Owner"]);
    expect(theirs.map((d) => d.fullName)).toEqual(["Cy Other"]);
    // The same rows, columns and types as drizzle's own query.
    expect(mine).toEqual(await listDebtors(db(), owner, { limit: 10 }));
  });

  it("a missing value is an error, never a query without its owner", async () => {
    const debtorsOf = preparedQuery((d) => listDebtors(d, OWNER_ID, { limit: 10 }));
    expect(() => debtorsOf(db(), {})).toThrow(/ownerId/);
  });

  it("runs prepared and request-built queries in one batch, in order, each mapped as drizzle maps it", async () => {
    const selected = preparedQuery((d) => listDebtors(d, OWNER_ID, { id: bindParam("id"), limit: 1 }));
    const bouncing = preparedQuery((d) => countBouncingDebtors(d, OWNER_ID));
    const [first] = await listDebtors(db(), owner, { limit: 1 });
    const [one, orgs, count, foreign] = await runBatch(db(), [
      selected(db(), { ownerId: owner, id: first.id }),
      boundQuery(db(), listOrganizations(db(), owner)),
      bouncing(db(), { ownerId: owner }),
      // Another owner's debtor by id: no row.
      selected(db(), { ownerId: other, id: first.id }),
    ] as const);
    expect(one).toEqual([first]);
    expect(orgs).toEqual([]);
    expect(countOf(count)).toBe(0);
    expect(foreign).toEqual([]);
  });

  it("preparedQueryBy builds each shape once and keeps the shapes apart", async () => {
    const builds: string[] = [];
    const byName = preparedQueryBy(
      (dir: SortDirection) => dir,
      (d, dir) => {
        builds.push(dir);
        return listDebtors(d, OWNER_ID, { sort: "name", dir, limit: 10 });
      },
    );
    const names = async (dir: SortDirection) =>
      (await runBound(byName(db(), dir, { ownerId: owner }))).map((d) => d.fullName);
    expect(await names("asc")).toEqual(["Ada Owner", "Bea Owner"]);
    expect(await names("desc")).toEqual(["Bea Owner", "Ada Owner"]);
    expect(await names("asc")).toEqual(["Ada Owner", "Bea Owner"]);
    expect(builds).toEqual(["asc", "desc"]);
  });
});

describe("the rows of a prepared query", () => {
  it("are drizzle's own: nested selections, a left join's missing row as null, decoders", async () => {
    const owner = (await makeUser()).id;
    const debtor = await makeDebtor(owner, { fullName: "Nested Owner" });
    await makeSchedule(owner, debtor.id);
    const nested = (d: ReturnType<typeof db>, ownerId: Bindable<string>) =>
      d
        .select({
          id: schedules.id,
          // Distinct SQL column names: D1's batch answers objects keyed by name (drizzle's batch mapping reads them so too).
          debtor: { email: debtors.email, fullName: debtors.fullName },
          // No organization: drizzle gives the whole object as null.
          organization: { name: organizations.name, address: organizations.address },
          twice: sql<number>`${debtors.debtCents} * 2`.mapWith(Number),
          label: sql<string>`'x' || ${debtors.id}`.as("label"),
        })
        .from(schedules)
        .innerJoin(debtors, eq(debtors.id, schedules.debtorId))
        .leftJoin(organizations, eq(organizations.id, schedules.organizationId))
        .where(eq(schedules.ownerId, ownerId));
    const flags = (d: ReturnType<typeof db>, id: Bindable<string>) =>
      d
        .select({ digest: users.notifyDigest, actions: users.notifyDebtorActions, created: users.createdAt })
        .from(users)
        .where(eq(users.id, id));
    const [rows, [flag], missing] = await runBatch(db(), [
      preparedQuery((d) => nested(d, OWNER_ID))(db(), { ownerId: owner }),
      preparedQuery((d) => flags(d, OWNER_ID))(db(), { ownerId: owner }),
      preparedQuery((d) => flags(d, OWNER_ID))(db(), { ownerId: "nobody" }),
    ] as const);
    const expected = await nested(db(), owner);
    expect(rows).toEqual(expected);
    expect(rows[0].organization).toBeNull();
    expect(rows[0].debtor.fullName).toBe("Nested Owner");
    expect([flag]).toEqual(await flags(db(), owner));
    expect(flag?.digest).toBe(false);
    expect(flag?.actions).toBe(true);
    expect(missing).toEqual([]);
    // Built on the request (boundQuery), the same rows.
    expect(await runBound(boundQuery(db(), nested(db(), owner)))).toEqual(expected);
  });
});
