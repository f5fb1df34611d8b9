import { beforeEach, describe, expect, it } from "vitest";
import { countOf } from "~/db/client.server";
import {
  bindParam,
  boundQuery,
  OWNER_ID,
  preparedQuery,
  preparedQueryBy,
  runBatch,
  runBound,
} from "~/db/prepared.server";
import type { SortDirection } from "~/domain/list-params";
import { listDebtors } from "~/models/debtor.server";
import { listOrganizations } from "~/models/organization.server";
import { countBouncingDebtors } from "~/models/webhook.server";
import { db, makeDebtor, makeUser } from "./fixtures";

/**
 * Queries built once per isolate and bound per request (app/db/prepared.server.ts, docs/architecture.md §12): the
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
