import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { getProfile, setProfileImage, updateProfileName } from "~/auth/users.server";
import { countOf } from "~/db/client.server";
import {
  countDebtors,
  createDebtor,
  debtorRowOf,
  debtorToJson,
  deleteDebtor,
  getDebtor,
  listDebtors,
  updateDebtor,
} from "~/debtors/debtors.server";
import {
  createOrganization,
  deleteOrganization,
  listOrganizations,
  organizationToJson,
  updateOrganization,
} from "~/debtors/organizations.server";
import type { DebtorInput } from "~/schemas/debtor";
import { db, debtorRow, insertDelivery, makeUser, orgRow, userRow } from "./fixtures";

let inputs = 0;
/** A debtor's form values; each call a new address (an address the account has is a twin: one debtor per address). */
const input = (over: Partial<DebtorInput> = {}): DebtorInput => ({
  kind: "person",
  full_name: "Pat Payer",
  email: `pat-${++inputs}@example.com`,
  debt: 125.5,
  active_strategy: 1,
  ...over,
});

describe("debtor model", () => {
  let owner: string;
  let other: string;
  beforeEach(async () => {
    owner = (await makeUser()).id;
    other = (await makeUser()).id;
  });

  it("createDebtor stores the debt in cents, the e-mail lower-cased, and the owner", async () => {
    const before = Date.now();
    const created = await createDebtor(
      db(),
      owner,
      input({ email: "Pat@Example.COM", active_strategy: 3, kind: "company" }),
    );
    const row = await debtorRow(created.id);
    expect(row).toMatchObject({
      owner_id: owner,
      kind: "company",
      full_name: "Pat Payer",
      email: "pat@example.com",
      debt_cents: 12550,
      paid_cents: 0,
      currency: "USD",
      active_strategy: 3,
      status: "active",
    });
    expect(row!.created_at).toBeGreaterThanOrEqual(before);
    expect(row!.updated_at).toBe(row!.created_at);
    expect(created.debtCents).toBe(12550);
  });

  it("createDebtor rounds to whole cents", async () => {
    const a = await createDebtor(db(), owner, input({ debt: 10.005 }));
    const b = await createDebtor(db(), owner, input({ debt: 0.1 + 0.2 + 99 }));
    expect((await debtorRow(a.id))!.debt_cents).toBe(1001);
    expect((await debtorRow(b.id))!.debt_cents).toBe(9930);
  });

  it("listDebtors returns only the owner's debtors, in id order, with the real count of sent deliveries", async () => {
    const d1 = await createDebtor(db(), owner, input({ full_name: "First" }));
    const d2 = await createDebtor(db(), owner, input({ full_name: "Second" }));
    const d3 = await createDebtor(db(), owner, input({ full_name: "Third" }));
    const foreign = await createDebtor(db(), other, input({ full_name: "Not yours" }));
    for (let i = 0; i < 3; i++) await insertDelivery(owner, d1.id, "sent");
    await insertDelivery(owner, d1.id, "failed");
    await insertDelivery(owner, d1.id, "sending");
    await insertDelivery(owner, d1.id, "bounced");
    await insertDelivery(owner, d2.id, "sent");
    await insertDelivery(other, foreign.id, "sent");
    await insertDelivery(other, foreign.id, "sent");

    const rows = await listDebtors(db(), owner);
    expect(rows.map((r) => r.fullName)).toEqual(["First", "Second", "Third"]);
    expect(rows.map((r) => r.emailsSent)).toEqual([3, 1, 0]);
    expect(rows[0]).toMatchObject({
      id: d1.id,
      debtCents: 12550,
      paidCents: 0,
      currency: "USD",
      status: "active",
      kind: "person",
    });
    expect(rows.some((r) => r.id === foreign.id)).toBe(false);

    const theirs = await listDebtors(db(), other);
    expect(theirs.map((r) => [r.id, r.emailsSent])).toEqual([[foreign.id, 2]]);
    expect(d3.id).toBeGreaterThan(d2.id);
  });

  it("listDebtors counts a delivery once it turns 'sent'", async () => {
    const d = await createDebtor(db(), owner, input());
    await insertDelivery(owner, d.id, "sending");
    expect((await listDebtors(db(), owner))[0]!.emailsSent).toBe(0);
    await env.DB.prepare("UPDATE deliveries SET status = 'sent' WHERE debtor_id = ?").bind(d.id).run();
    expect((await listDebtors(db(), owner))[0]!.emailsSent).toBe(1);
  });

  it("listDebtors pages with limit and offset", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createDebtor(db(), owner, input({ full_name: `D${i}` }))).id);
    expect((await listDebtors(db(), owner, { limit: 2, offset: 0 })).map((r) => r.id)).toEqual(ids.slice(0, 2));
    expect((await listDebtors(db(), owner, { limit: 2, offset: 2 })).map((r) => r.id)).toEqual(ids.slice(2, 4));
    expect((await listDebtors(db(), owner, { limit: 2, offset: 4 })).map((r) => r.id)).toEqual(ids.slice(4));
    expect(await listDebtors(db(), owner, { limit: 2, offset: 6 })).toEqual([]);
  });

  it("countDebtors counts only the owner's debtors", async () => {
    expect(countOf(await countDebtors(db(), owner))).toBe(0);
    await createDebtor(db(), owner, input());
    await createDebtor(db(), owner, input());
    await createDebtor(db(), other, input());
    expect(countOf(await countDebtors(db(), owner))).toBe(2);
    expect(countOf(await countDebtors(db(), other))).toBe(1);
  });

  it("getDebtor returns the owner's debtor and nothing for another user's or a missing id", async () => {
    const mine = await createDebtor(db(), owner, input());
    const theirs = await createDebtor(db(), other, input());
    expect(await getDebtor(db(), owner, mine.id)).toMatchObject({ id: mine.id, debtCents: 12550, openInvoices: 1 });
    expect(await getDebtor(db(), owner, theirs.id)).toBeUndefined();
    expect(await getDebtor(db(), owner, 987654321)).toBeUndefined();
  });

  it("updateDebtor changes the owner's debtor and leaves another user's untouched", async () => {
    const mine = await createDebtor(db(), owner, input(), { now: 1000 });
    const updated = await updateDebtor(
      { env, db: db() },
      owner,
      mine.id,
      input({ full_name: "Renamed", email: "NEW@example.com", debt: 7, active_strategy: 2 }),
      5000,
    );
    expect(updated?.completedScheduleIds).toEqual([]);
    expect(updated?.debtor).toMatchObject({
      id: mine.id,
      fullName: "Renamed",
      email: "new@example.com",
      debtCents: 700,
      activeStrategy: 2,
    });
    expect(await debtorRow(mine.id)).toMatchObject({ debt_cents: 700, updated_at: 5000, created_at: 1000 });

    const theirs = await createDebtor(db(), other, input({ full_name: "Theirs" }));
    const before = await debtorRow(theirs.id);
    expect(await updateDebtor({ env, db: db() }, owner, theirs.id, input({ full_name: "Hijacked" }))).toBeUndefined();
    expect(await debtorRow(theirs.id)).toEqual(before);
  });

  it("deleteDebtor deletes only the owner's debtor, and says whether it did", async () => {
    const mine = await createDebtor(db(), owner, input());
    const theirs = await createDebtor(db(), other, input());
    expect(await deleteDebtor({ env, db: db() }, owner, theirs.id)).toBeUndefined();
    expect(await debtorRow(theirs.id)).not.toBeNull();
    expect(await deleteDebtor({ env, db: db() }, owner, mine.id)).toEqual({ scheduleIds: [] });
    expect(await debtorRow(mine.id)).toBeNull();
    expect(await deleteDebtor({ env, db: db() }, owner, mine.id)).toBeUndefined();
  });

  it("debtorToJson uses the spec's names and decimal amounts", async () => {
    const d = await createDebtor(db(), owner, input({ email: "pat@example.com" }));
    await insertDelivery(owner, d.id, "sent");
    const [row] = await listDebtors(db(), owner);
    expect(debtorToJson(debtorRowOf(row!), owner)).toEqual({
      id: d.id,
      fb_uuid: owner,
      kind: "person",
      full_name: "Pat Payer",
      email: "pat@example.com",
      debt: 125.5,
      paid: 0,
      currency: "USD",
      active_strategy: 1,
      status: "active",
      time_zone: "UTC",
      invoice_number: null,
      open_invoices: 1,
      emails_sent: 1,
      // The contact person (decisions/057) and the debtor's language (decisions/055): none given.
      contact_name: null,
      contact_role: null,
      language: null,
      phone: null,
      text_consent: false,
      text_consent_at: null,
      text_consent_by: null,
    });
    expect(debtorToJson({ ...d, debtCents: 1, paidCents: 99 }, owner)).toMatchObject({ debt: 0.01, paid: 0.99 });
  });
});

describe("organization model", () => {
  let owner: string;
  let other: string;
  beforeEach(async () => {
    owner = (await makeUser()).id;
    other = (await makeUser()).id;
  });

  it("createOrganization stores the owner's organization and returns id, name and address", async () => {
    const org = await createOrganization(db(), owner, { name: "Acme", address: "1 Road\nTown" });
    expect(org).toEqual({ id: expect.any(Number), name: "Acme", address: "1 Road\nTown", paymentUrl: null });
    expect(await orgRow(org.id)).toMatchObject({ owner_id: owner, name: "Acme", address: "1 Road\nTown" });
  });

  it("listOrganizations lists only the owner's, in id order", async () => {
    const a = await createOrganization(db(), owner, { name: "A", address: "a" });
    const b = await createOrganization(db(), owner, { name: "B", address: "b" });
    await createOrganization(db(), other, { name: "C", address: "c" });
    expect(await listOrganizations(db(), owner)).toEqual([
      { id: a.id, name: "A", address: "a", paymentUrl: null },
      { id: b.id, name: "B", address: "b", paymentUrl: null },
    ]);
    expect((await listOrganizations(db(), other)).map((o) => o.name)).toEqual(["C"]);
  });

  it("updateOrganization changes only the owner's", async () => {
    const mine = await createOrganization(db(), owner, { name: "Mine", address: "x" });
    const theirs = await createOrganization(db(), other, { name: "Theirs", address: "y" });
    expect(await updateOrganization(db(), owner, mine.id, { name: "Mine 2", address: "x2" })).toEqual({
      id: mine.id,
      name: "Mine 2",
      address: "x2",
      paymentUrl: null,
    });
    expect(await orgRow(mine.id)).toMatchObject({ name: "Mine 2", address: "x2" });
    expect(await updateOrganization(db(), owner, theirs.id, { name: "Hijacked", address: "z" })).toBeUndefined();
    expect(await orgRow(theirs.id)).toMatchObject({ owner_id: other, name: "Theirs", address: "y" });
  });

  it("deleteOrganization deletes only the owner's, and says whether it did", async () => {
    const mine = await createOrganization(db(), owner, { name: "Mine", address: "x" });
    const theirs = await createOrganization(db(), other, { name: "Theirs", address: "y" });
    expect(await deleteOrganization(db(), owner, theirs.id)).toBe(false);
    expect(await orgRow(theirs.id)).not.toBeNull();
    expect(await deleteOrganization(db(), owner, mine.id)).toBe(true);
    expect(await orgRow(mine.id)).toBeNull();
    expect(await deleteOrganization(db(), owner, mine.id)).toBe(false);
  });

  it("organizationToJson adds the owner as fb_uuid", () => {
    expect(organizationToJson({ id: 7, name: "N", address: "A" }, owner)).toEqual({
      id: 7,
      name: "N",
      address: "A",
      payment_url: null,
      fb_uuid: owner,
    });
    expect(
      organizationToJson({ id: 7, name: "N", address: "A", paymentUrl: "https://pay.example.com/n" }, owner),
    ).toMatchObject({ payment_url: "https://pay.example.com/n" });
  });
});

describe("profile model", () => {
  it("getProfile returns the user's profile, or undefined for an unknown id", async () => {
    const { id, email } = await makeUser("Grace Hopper");
    expect(await getProfile(db(), id)).toEqual({
      id,
      email,
      fullName: "Grace Hopper",
      imgKey: null,
      plan: "medium",
    });
    expect(await getProfile(db(), "nosuchuser")).toBeUndefined();
  });

  it("updateProfileName changes only that user's name", async () => {
    const id = (await makeUser("Old Name")).id;
    const other = (await makeUser("Other Name")).id;
    await updateProfileName(db(), id, "New Name");
    expect((await userRow(id))!.full_name).toBe("New Name");
    expect((await userRow(other))!.full_name).toBe("Other Name");
  });

  it("setProfileImage sets the key and returns the previous one", async () => {
    const id = (await makeUser()).id;
    const other = (await makeUser()).id;
    expect(await setProfileImage(db(), id, `${id}/first`)).toBeNull();
    expect((await userRow(id))!.img_key).toBe(`${id}/first`);
    expect(await setProfileImage(db(), id, `${id}/second`)).toBe(`${id}/first`);
    expect((await userRow(id))!.img_key).toBe(`${id}/second`);
    expect(await setProfileImage(db(), id, null)).toBe(`${id}/second`);
    expect((await userRow(id))!.img_key).toBeNull();
    expect((await userRow(other))!.img_key).toBeNull();
  });
});
